/**
 * The JSON body parser, stricter than JSON.parse: bytes that are not UTF-8, strings with lone surrogates,
 * duplicate keys and `__proto__` keys are refused with a 400 naming the field, where JSON.parse would
 * replace, keep the last, or let a zod record drop them silently.
 */
import { isUtf8 } from 'buffer';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { visit } from 'jsonc-parser';
import { AppError, badRequest } from '../../domain/errors';

/** Far deeper than any body of ours (a GitBook document nests a few levels per block); it keeps every walk of a body shallow. */
const MAX_DEPTH = 256;

const LONE_SURROGATE = /\p{Cs}/u;
const QUOTE = 0x22;
const COLON = 0x3a;
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** The raw bytes of each parsed body, kept until the checks after parsing have read them. */
const rawBodies = new WeakMap<Request, Buffer>();

type Path = (string | number)[];
const field = (path: Path) => (path.length ? path.join('.') : 'body');

/**
 * Counts `"` + whitespace + `:` in the bytes: every key of the text ends so, and only an escaped quote
 * inside a string can add to the count. So when the count equals the keys JSON.parse kept, no key
 * was repeated, and the costlier duplicate search is skipped.
 */
function maxKeysInText(bytes: Buffer): number {
  let count = 0;
  for (let i = bytes.indexOf(COLON); i !== -1; i = bytes.indexOf(COLON, i + 1)) {
    let j = i - 1;
    while (j >= 0 && JSON_WHITESPACE.has(bytes[j])) j--;
    if (bytes[j] === QUOTE) count++;
  }
  return count;
}

/**
 * Walks the parsed value (iteratively, depth-limited): refuses `__proto__` keys and lone surrogates,
 * and counts the keys kept.
 */
function inspect(body: unknown): number {
  let keys = 0;
  const stack: { value: unknown; path: Path }[] = [{ value: body, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) throw badRequest(`${field(path)}: must not contain lone surrogates`);
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (path.length >= MAX_DEPTH) throw badRequest(`body: must not nest more than ${MAX_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) stack.push({ value: item, path: [...path, i] });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      keys++;
      // JSON.parse keeps `__proto__` as an own key; a zod record would then drop it without a word
      if (key === '__proto__') throw badRequest(`${field([...path, key])}: unknown field`);
      if (LONE_SURROGATE.test(key)) throw badRequest(`${field(path)}: keys must not contain lone surrogates`);
      stack.push({ value: item, path: [...path, key] });
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
  if (!/^utf-?8$/.test(encoding)) throw new AppError(415, 'body: charset must be utf-8');
  if (!isUtf8(bytes)) throw badRequest('body: must be valid UTF-8');
  rawBodies.set(req, bytes);
}

function checkParsed(req: Request, _res: Response, next: NextFunction): void {
  const bytes = rawBodies.get(req);
  if (!bytes) {
    next();
    return;
  }
  rawBodies.delete(req);
  const keys = inspect(req.body);
  if (maxKeysInText(bytes) > keys) {
    const duplicate = firstDuplicateKey(bytes.toString('utf8'));
    if (duplicate) throw badRequest(`${field(duplicate)}: must not appear more than once`);
  }
  next();
}

export function jsonBody(limit: number): RequestHandler[] {
  return [
    express.json({ limit, strict: false, type: ['application/json', 'application/*+json'], verify }),
    checkParsed,
  ];
}
