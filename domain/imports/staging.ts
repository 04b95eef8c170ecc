/**
 * What an import stages before its one commit, kept in the blob store under `imports/<importRunId>/`
 * (large payloads travel as blob keys, never as workflow arguments):
 *   state-<n>.json  the state after n batches: pages so far, files, link targets, the crawl's frontier
 *   text-<n>.json   the markdown of the pages batch n staged, by page id
 *   files/<sha256>  the bytes of imported images (kept by the commit, which references them)
 *   source          an archive staged in several batches, as the first one fetched it
 * Batch n reads state-n and writes state-(n+1), so a retried batch starts over from the same state.
 */
import type { Logger } from 'pino';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { FileEntry } from '../content/model';

/** A page as staged; its markdown is in the text blob of its batch. */
export interface StagedPage {
  id: string;
  /** Where it sits: segments of its URL or archive path below the import's root ([]: at the root). */
  path: string[];
  title: string;
  /** Its address as the import's links name it (a normalized URL, an archive path); null for none. */
  source: string | null;
}

export interface StagedFile extends FileEntry {
  id: string;
}

/** A link between staged documents, resolved at the commit: a page link if `target` was imported, else `href`. */
export interface StagedLink {
  target: string;
  href: string;
  /** the fragment (`#section`) either form keeps */
  hash: string;
}

/** Where a website crawl stands between batches. */
export interface CrawlFrontier {
  queue: { url: string; depth: number }[];
  /** every URL queued or fetched, normalized */
  seen: string[];
  /** the site's robots.txt; null: none (everything allowed) */
  robots: string | null;
}

export interface ImportState {
  /** batches done */
  batch: number;
  finished: boolean;
  /** marks link placeholders in staged markdown (`x-import-<nonce>:<index>`) */
  nonce: string;
  pages: StagedPage[];
  texts: string[];
  files: StagedFile[];
  /** image sources already handled (URL or archive path) -> file id, or null when it could not be imported */
  images: Record<string, string | null>;
  links: StagedLink[];
  /** resources processed: pages fetched or unpacked, imported or skipped */
  processed: number;
  bytes: number;
  crawl: CrawlFrontier | null;
  /** an archive's documents to stage in all, once its first batch read it (null: not yet, or no archive) */
  archiveDocuments: number | null;
}

export const importPrefix = (importRunId: string): string => `imports/${importRunId}`;
export const stateKey = (importRunId: string, batch: number): string =>
  `${importPrefix(importRunId)}/state-${batch}.json`;
export const textKey = (importRunId: string, batch: number): string =>
  `${importPrefix(importRunId)}/text-${batch}.json`;
export const imageKey = (importRunId: string, sha256: string): string => `${importPrefix(importRunId)}/files/${sha256}`;
export const sourceKey = (importRunId: string): string => `${importPrefix(importRunId)}/source`;

export async function readJson<T>(blobs: BlobStore, key: string): Promise<T> {
  return JSON.parse((await blobs.read(key)).toString('utf8')) as T;
}

export async function writeJson(blobs: BlobStore, key: string, value: unknown): Promise<void> {
  await blobs.put(key, Buffer.from(JSON.stringify(value)), 'application/json');
}

/** The markdown of every staged page, by page id. */
export async function readTexts(blobs: BlobStore, state: ImportState): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const key of state.texts) {
    for (const [id, markdown] of Object.entries(await readJson<Record<string, string>>(blobs, key)))
      out.set(id, markdown);
  }
  return out;
}

/**
 * Removes what an ended run staged: its states and texts, and its images unless its commit
 * references them. `batches` is the last batch the workflow saw end; the one after it may have saved
 * before the run learnt it was superseded, so its blobs go too. Idempotent; a blob store failure only
 * leaves bytes behind, so it is logged.
 */
export async function discardStaging(
  deps: { blobs: BlobStore; logger: Logger },
  importRunId: string,
  batches: number,
  committed: boolean,
): Promise<void> {
  let last: ImportState | null = null;
  for (let n = batches + 1; n > 0 && !last; n--)
    last = await readJson<ImportState>(deps.blobs, stateKey(importRunId, n)).catch(() => null);
  const keys = [sourceKey(importRunId)];
  for (let n = 0; n <= batches; n++) keys.push(stateKey(importRunId, n + 1), textKey(importRunId, n));
  if (last && !committed) keys.push(...new Set(last.files.map((f) => f.blob)));
  for (const key of keys) {
    try {
      await deps.blobs.delete(key);
    } catch (err) {
      deps.logger.warn({ err, key }, 'could not remove a staged import blob');
    }
  }
}
