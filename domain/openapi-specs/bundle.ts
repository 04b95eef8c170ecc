/**
 * Parses, bundles and validates an OpenAPI document (Swagger 2.0, OpenAPI 3.0 and 3.1, JSON or YAML)
 * with @scalar/openapi-parser. Bundling gathers the files that external `$ref`s point to, fetched only
 * through the guarded client; the result is the bundle's filesystem, each file by its path.
 */

import type { AnyObject, ErrorObject, Filesystem } from '@scalar/openapi-parser';
import { load, normalize, validate } from '@scalar/openapi-parser';
import { createHash } from 'crypto';
import type { JobErrorMessage } from '../../entities/JobState';
import { FetchError } from '../net/fetch-error';
import { JobError } from '../processes/job-error';
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
}

/** How many external files one document may pull in. */
export const MAX_REFERENCED_FILES = 50;
/** How many problems a failure keeps on the row (the count keeps the total). */
export const MAX_KEPT_ERRORS = 100;

/** Fetches the text of an external file; the caller passes the guarded client here. */
export type FetchText = (url: string) => Promise<string>;

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

function parseText(text: string): AnyObject {
  let document: unknown;
  try {
    document = normalize(text);
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    throw parseError('the document is not valid YAML', [{ message, code: 'yaml-parse' }]);
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) {
    throw parseError('the document is not a JSON or YAML object', [
      { message: 'expected a JSON or YAML object at the top level', code: 'invalid' },
    ]);
  }
  return document as AnyObject;
}

/**
 * Bundles `text` (fetched from `sourceUrl`, or submitted when that is null). A problem with the
 * document is a PARSE_ERROR JobError listing every problem; an external file that cannot be fetched
 * fails with that fetch's code (FETCH_TIMEOUT or FETCH_ERROR).
 */
export async function bundleOpenAPI(text: string, sourceUrl: string | null, fetchText: FetchText): Promise<Bundle> {
  const document = parseText(text);
  let fetches = 0;
  let fetchFailure: FetchError | null = null;
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
      try {
        return await fetchText(url);
      } catch (err) {
        if (err instanceof FetchError) fetchFailure ??= err;
        throw err;
      }
    },
  };
  const loaded = await load(document, { plugins: [guardedFiles], throwOnError: false });
  if (fetchFailure) {
    const failure: FetchError = fetchFailure;
    throw new JobError(failure.code, `a referenced file could not be fetched: ${failure.message}`);
  }
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
  const hash = createHash('sha256').update(JSON.stringify(files)).digest('hex');
  return { entrypoint, files, version: validation.version ?? 'unknown', hash };
}
