/**
 * The JSON body parser, stricter than JSON.parse: bytes that are not UTF-8, strings with lone surrogates,
 * duplicate keys and `__proto__` keys are refused with a 400 naming the field, where JSON.parse would
 * replace, keep the last, or let a zod record drop them silently. Nesting and the number of values are
 * bounded on the bytes, before JSON.parse builds anything.
 */
import { isUtf8 } from 'buffer';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { ParseError, parse, printParseErrorCode, visit } from 'jsonc-parser';
import { AppError, badRequest } from '../../domain/errors';
import { WHOLE_BODY } from '../validation';

/** Far deeper than any body of ours (a GitBook document nests a few levels per block); it keeps every walk of a body shallow. */
const JSON_MAX_DEPTH = 256;
/**
 * Values and keys one body may hold. Parsed, each costs up to ~70 bytes of heap where its text costs 2 or 3
 * (`{},`), so the byte limit alone let a 16 MiB publish body, read before its token is checked, become
 * 375 MB; far beyond any body of ours (a 1 MB page is one string).
 */
const JSON_MAX_VALUES = 100_000;

const LONE_SURROGATE = /\p{Cs}/u;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPENERS = new Set([0x7b, 0x5b]);
const CLOSERS = new Set([0x7d, 0x5d]);
const SEPARATORS = new Set([0x20, 0x09, 0x0a, 0x0d, 0x2c]);

/** The raw bytes of each parsed body and the keys its text holds, kept until the checks after parsing. */
const rawBodies = new WeakMap<Request, { bytes: Buffer; keys: number }>();

type Path = (string | number)[];
const field = (path: Path) => (path.length ? path.join('.') : WHOLE_BODY);

/** The index of the quote closing the string opened at `open`, or -1 (JSON.parse then refuses the text). */
function stringEnd(bytes: Buffer, open: number): number {
  for (let at = bytes.indexOf(QUOTE, open + 1); at !== -1; at = bytes.indexOf(QUOTE, at + 1)) {
    let escapes = 0;
    while (bytes[at - 1 - escapes] === BACKSLASH) escapes++;
    if (escapes % 2 === 0) return at;
  }
  return -1;
}

/**
 * One pass over the bytes outside strings (strings are skipped with indexOf): refuses nesting deeper
 * than JSON_MAX_DEPTH and more than JSON_MAX_VALUES values and keys, and counts the keys (a `:` outside
 * strings ends each one), which the duplicate check compares with the keys JSON.parse kept.
 */
function scan(bytes: Buffer): number {
  let depth = 0;
  let values = 0;
  let keys = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (SEPARATORS.has(b)) continue;
    if (b === COLON) {
      keys++;
      continue;
    }
    if (CLOSERS.has(b)) {
      depth--;
      continue;
    }
    // a value starts here: a string, an object or array, or a literal's first byte
    if (b === QUOTE) {
      i = stringEnd(bytes, i);
      if (i === -1) break;
    } else if (OPENERS.has(b)) {
      if (++depth > JSON_MAX_DEPTH) throw badRequest(`${WHOLE_BODY}: must not nest more than ${JSON_MAX_DEPTH} levels`);
    } else {
      while (
        i + 1 < bytes.length &&
        !SEPARATORS.has(bytes[i + 1]) &&
        bytes[i + 1] !== COLON &&
        !CLOSERS.has(bytes[i + 1])
      )
        i++;
    }
    if (++values > JSON_MAX_VALUES)
      throw badRequest(`${WHOLE_BODY}: must not hold more than ${JSON_MAX_VALUES} values and keys`);
  }
  return keys;
}

/** Where a value sits: its parent's place and its own key or index; the path is spelled out only for a message. */
interface Place {
  parent: Place | null;
  key: string | number;
}
const pathOf = (place: Place | null): Path => {
  const path: Path = [];
  for (let at = place; at; at = at.parent) path.unshift(at.key);
  return path;
};

/** Walks the parsed value (iteratively): refuses `__proto__` keys and lone surrogates, and counts the keys kept. */
function inspect(body: unknown): number {
  let keys = 0;
  const stack: { value: unknown; place: Place | null }[] = [{ value: body, place: null }];
  while (stack.length) {
    const { value, place } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) throw badRequest(`${field(pathOf(place))}: must not contain lone surrogates`);
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) stack.push({ value: item, place: { parent: place, key: i } });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      keys++;
      // JSON.parse keeps `__proto__` as an own key; a zod record would then drop it without a word
      if (key === '__proto__') throw badRequest(`${field([...pathOf(place), key])}: unknown field`);
      if (LONE_SURROGATE.test(key)) throw badRequest(`${field(pathOf(place))}: keys must not contain lone surrogates`);
      stack.push({ value: item, place: { parent: place, key } });
    }
  }
  return keys;
}

/** The path of the first key repeated within one object, if any. */
function firstDuplicateKey(text: string): Path | undefined {
  const objects: Set<string>[] = [];
  let found: Path | undefined;
  visit(text, {
    onObjectBegin: () => {
      objects.push(new Set());
    },
    onObjectEnd: () => {
      objects.pop();
    },
    onObjectProperty: (key, _offset, _length, _line, _column, pathOf) => {
      const seen = objects[objects.length - 1];
      if (seen.has(key)) found ??= [...pathOf(), key];
      seen.add(key);
    },
  });
  return found;
}

function verify(req: Request, _res: Response, bytes: Buffer, encoding: string): void {
  // RFC 8259 §8.1: JSON exchanged between systems is UTF-8
  if (!/^utf-?8$/.test(encoding)) throw new AppError(415, `${WHOLE_BODY}: charset must be utf-8`);
  if (!isUtf8(bytes)) throw badRequest(`${WHOLE_BODY}: must be valid UTF-8`);
  rawBodies.set(req, { bytes, keys: scan(bytes) });
}

function checkParsed(req: Request, _res: Response, next: NextFunction): void {
  const raw = rawBodies.get(req);
  if (!raw) {
    next();
    return;
  }
  rawBodies.delete(req);
  // the text holds more keys than JSON.parse kept only when one was repeated
  if (raw.keys > inspect(req.body)) {
    const duplicate = firstDuplicateKey(raw.bytes.toString('utf8'));
    if (duplicate) throw badRequest(`${field(duplicate)}: must not appear more than once`);
  }
  next();
}

/**
 * The 400 for text JSON.parse refused, naming where: the first error jsonc-parser finds in strict JSON (no comments,
 * no trailing commas), as a line and a column counted from 1, and what was expected there.
 */
export function malformedJson(text: string | undefined): AppError {
  const errors: ParseError[] = [];
  if (text !== undefined) parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (!first || text === undefined) return badRequest(`${WHOLE_BODY}: malformed JSON`);
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - (before.lastIndexOf('\n') + 1) + 1;
  return badRequest(`${WHOLE_BODY}: malformed JSON at line ${line}, column ${column} (${describeParseError(first)})`);
}

/** jsonc-parser's code in words (`PropertyNameExpected` → "property name expected"). */
function describeParseError(error: ParseError): string {
  return printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

export function jsonBody(limit: number): RequestHandler[] {
  return [
    express.json({ limit, strict: false, type: ['application/json', 'application/*+json'], verify }),
    checkParsed,
  ];
}
