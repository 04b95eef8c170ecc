/**
 * Parses, bundles and validates an OpenAPI document (Swagger 2.0, OpenAPI 3.0 and 3.1, JSON or YAML)
 * with @scalar/openapi-parser. Bundling gathers the files that external `$ref`s point to, fetched only
 * through the guarded client; the result is the bundle's filesystem, each file by its path. Every text is
 * parsed here, at the yaml package's own alias limit (the parser's allows 10,000), and the bundle's
 * serialized size is bounded.
 */

import type { AnyObject, ErrorObject, Filesystem } from '@scalar/openapi-parser';
import { load, validate } from '@scalar/openapi-parser';
import { createHash } from 'crypto';
import { parse as parseYaml } from 'yaml';
import { FetchError } from '../../platform/net/fetch-error';
import type { JobErrorMessage } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { OPENAPI_FAILURES } from './failures';

/** One file of a bundle, in the shape of @scalar/openapi-parser's (and GitBook's renderer's) Filesystem entry. */
export interface BundleFile {
  dir: string;
  isEntrypoint: boolean;
  references: string[];
  filename: string;
  specification: AnyObject;
}

/** Each file of the bundle by its path; the entry point's key is `entrypoint`. */
export interface Bundle {
  entrypoint: string;
  files: Record<string, BundleFile>;
  /** the version the document declares: 2.0, 3.0 or 3.1 */
  version: string;
  /** SHA-256 of the files, to tell an unchanged refresh */
  hash: string;
  /** the files serialized, as stored: at most the maximum the caller gave */
  json: string;
}

/** How many external files one document may pull in. */
export const MAX_REFERENCED_FILES = 50;
/** How many problems a failure keeps on the row (the count keeps the total). */
export const MAX_KEPT_ERRORS = 100;

/** Fetches the text of an external file, at most `maxBytes` of it; the caller passes the guarded client here. */
export type FetchText = (url: string, maxBytes: number) => Promise<string>;

function problems(code: string, errors: ErrorObject[]): JobErrorMessage[] {
  return errors.map((e) => {
    // typed as segments, given as a JSON pointer by the validator
    const path: unknown = e.path;
    const where = Array.isArray(path) ? path.join('/') : typeof path === 'string' ? path : '';
    return { message: where ? `${where}: ${e.message}` : e.message, code: e.code ?? code };
  });
}

function parseError(summary: string, messages: JobErrorMessage[]): JobError {
  return new JobError(
    OPENAPI_FAILURES.parse,
    `${summary} (${messages.length} problem${messages.length === 1 ? '' : 's'})`,
    messages,
  );
}

/** The name the entry file is stored under: the source URL's file name, else by its format. */
function entryName(text: string, sourceUrl: string | null): string {
  const last = sourceUrl ? (new URL(sourceUrl).pathname.split('/').pop() ?? '') : '';
  if (/^[\w.-]+\.(json|ya?ml)$/i.test(last)) return last;
  return text.trimStart().startsWith('{') ? 'openapi.json' : 'openapi.yaml';
}

/** A serialized size is counted exactly up to this many times the maximum (the size a raised limit needs), no further. */
const COUNTED_MAXIMA = 4;

/** Refuses `what` when it serializes to more than `maxBytes`; stops counting a bomb long before its end. */
function checkSize(value: unknown, what: string, maxBytes: number): void {
  const stop = COUNTED_MAXIMA * maxBytes;
  const bytes = jsonBytes(value, what, stop);
  if (bytes <= maxBytes) return;
  throw parseError(`${what} is too large`, [
    {
      message: `${what} is ${bytes > stop ? `more than ${stop}` : bytes} bytes serialized, more than the ${maxBytes} allowed (OPENAPI_BUNDLE_MAX_BYTES)`,
      code: 'too-large',
    },
  ]);
}

/**
 * JSON, else YAML with the yaml package's default `maxAliasCount` (100, counting expanded aliases): a few
 * kilobytes of aliases to one large node would otherwise expand to gigabytes. Refused before the parser
 * walks it when it expands past `maxBytes` or contains itself. `what` names the text in errors.
 */
function parseText(text: string, what: string, maxBytes: number): AnyObject {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    try {
      document = parseYaml(text, { merge: true });
    } catch (err) {
      const message = (err as Error).message.split('\n')[0];
      throw parseError(`${what} is not valid YAML`, [{ message, code: 'yaml-parse' }]);
    }
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) {
    throw parseError(`${what} is not a JSON or YAML object`, [
      { message: 'expected a JSON or YAML object at the top level', code: 'invalid' },
    ]);
  }
  checkSize(document, what, maxBytes);
  return document as AnyObject;
}

/**
 * The UTF-8 size of `JSON.stringify(value)`, counted without building the string (aliases share nodes that
 * serializing copies) until it passes `stop`. An alias inside its own anchor makes a cycle JSON cannot hold.
 */
function jsonBytes(root: unknown, what: string, stop: number): number {
  let bytes = 0;
  const ancestors = new Set<object>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') bytes += Buffer.byteLength(JSON.stringify(value));
    else if (typeof value === 'number') bytes += Number.isFinite(value) ? String(value).length : 4;
    else if (typeof value === 'boolean') bytes += value ? 4 : 5;
    // null, and what an array holds as null (undefined, functions)
    else if (value === null || typeof value !== 'object') bytes += 4;
    else {
      if (ancestors.has(value))
        throw parseError(`${what} contains itself`, [
          { message: 'a YAML alias refers to a node that contains it', code: 'yaml-parse' },
        ]);
      ancestors.add(value);
      const members: Array<[string | null, unknown]> = Array.isArray(value)
        ? value.map((item) => [null, item])
        : Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function');
      // brackets and commas
      bytes += 2 + Math.max(0, members.length - 1);
      for (const [key, item] of members) {
        if (bytes > stop) break;
        if (key !== null) bytes += Buffer.byteLength(JSON.stringify(key)) + 1;
        visit(item);
      }
      ancestors.delete(value);
    }
  };
  visit(root);
  return bytes;
}

/**
 * Bundles `text` (fetched from `sourceUrl`, or submitted when that is null). A problem with the
 * document or a file it references is a PARSE_ERROR JobError listing every problem, and so is a bundle
 * of more than `maxBytes` serialized; an external file that cannot be fetched fails with that fetch's
 * code (FETCH_TIMEOUT or FETCH_ERROR), and so do external files of more than `maxBytes` together.
 */
export async function bundleOpenAPI(
  text: string,
  sourceUrl: string | null,
  fetchText: FetchText,
  maxBytes: number,
): Promise<Bundle> {
  const document = parseText(text, 'the document', maxBytes);
  let fetches = 0;
  let fetchedBytes = 0;
  // the parser turns a failed get into an unresolved reference: the first failure is thrown after it
  let failure: JobError | null = null;
  const guardedFiles = {
    // absolute http(s) references always; relative ones when there is a URL to resolve them against
    check: (value?: unknown) =>
      typeof value === 'string' && (/^https?:\/\//i.test(value) || (sourceUrl !== null && !value.startsWith('#'))),
    resolvePath: (parent: unknown, reference: string) =>
      new URL(reference, typeof parent === 'string' && /^https?:/i.test(parent) ? parent : (sourceUrl ?? undefined))
        .href,
    get: async (url: string) => {
      if (++fetches > MAX_REFERENCED_FILES)
        throw new FetchError('size', `more than ${MAX_REFERENCED_FILES} referenced files`);
      const left = maxBytes - fetchedBytes;
      let fetched: string;
      try {
        fetched = await fetchText(url, left);
      } catch (err) {
        if (err instanceof FetchError)
          failure ??= new JobError(
            err.code,
            `a referenced file could not be fetched: ${err.message}${err.reason === 'size' ? ` (the referenced files may hold ${maxBytes} bytes together, ${left} were left)` : ''}`,
            undefined,
            { retryable: err.transient },
          );
        throw err;
      }
      fetchedBytes += Buffer.byteLength(fetched);
      try {
        // parsed here, not by the parser's own YAML settings
        return parseText(fetched, url, maxBytes);
      } catch (err) {
        if (err instanceof JobError) failure ??= err;
        throw err;
      }
    },
  };
  const loaded = await load(document, { plugins: [guardedFiles], throwOnError: false });
  if (failure) throw failure;
  const filesystem: Filesystem = loaded.filesystem;
  const entrypoint = entryName(text, sourceUrl);
  filesystem[0] = { ...filesystem[0], filename: entrypoint, dir: './' };
  const loadErrors = problems('dereference', loaded.errors ?? []);
  const validation = await validate(filesystem);
  const errors = [...loadErrors, ...problems('invalid', validation.errors ?? [])];
  if (!validation.valid || errors.length) throw parseError('the document is not a valid OpenAPI document', errors);

  const files: Record<string, BundleFile> = {};
  for (const f of filesystem)
    files[f.filename ?? entrypoint] = {
      dir: f.dir,
      isEntrypoint: f.isEntrypoint,
      references: f.references ?? [],
      filename: f.filename ?? entrypoint,
      specification: f.specification,
    };
  checkSize(files, 'the bundle', maxBytes);
  const json = JSON.stringify(files);
  const hash = createHash('sha256').update(json).digest('hex');
  return { entrypoint, files, json, version: validation.version ?? 'unknown', hash };
}
