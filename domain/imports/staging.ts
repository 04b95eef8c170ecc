/**
 * What an import stages before its one commit, kept in the blob store under `imports/<importRunId>/`
 * (large payloads travel as blob keys, never as workflow arguments):
 *   state-<n>.json  the state after n batches: counts, files, the crawl's frontier (nothing per page)
 *   pages-<n>.json  the pages batch n staged: where each sits, its title and markdown
 *   files/<sha256>  the bytes of imported images (kept by the commit, which references them)
 *   source          an archive staged in several batches, as the first one fetched it
 * Batch n reads state-n and writes state-(n+1), so a retried batch starts over from the same state. A batch holds
 * its own pages only, and the commit reads them back a batch at a time: staging memory follows the batch.
 */
import type { Logger } from 'pino';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { FileEntry } from '../content/model';

/** A page as staged, in its batch's pages blob. */
export interface StagedPage {
  id: string;
  /** Where it sits: segments of its URL or archive path below the import's root ([]: at the root). */
  path: string[];
  title: string;
  /** Its address as the import's links name it (a normalized URL, an archive path); null for none. */
  source: string | null;
  markdown: string;
}

export interface StagedFile extends FileEntry {
  id: string;
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
  /** marks link placeholders in staged markdown (links.ts) */
  nonce: string;
  /** pages staged so far, in the pages blobs of batches 0 to batch - 1 */
  staged: number;
  files: StagedFile[];
  /** image sources already handled (URL or archive path) -> file id, or null when it could not be imported */
  images: Record<string, string | null>;
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
export const pagesKey = (importRunId: string, batch: number): string =>
  `${importPrefix(importRunId)}/pages-${batch}.json`;
export const imageKey = (importRunId: string, sha256: string): string => `${importPrefix(importRunId)}/files/${sha256}`;
export const sourceKey = (importRunId: string): string => `${importPrefix(importRunId)}/source`;

export async function readJson<T>(blobs: BlobStore, key: string): Promise<T> {
  return JSON.parse((await blobs.read(key)).toString('utf8')) as T;
}

export async function writeJson(blobs: BlobStore, key: string, value: unknown): Promise<void> {
  await blobs.put(key, Buffer.from(JSON.stringify(value)), 'application/json');
}

/** A staged page without its markdown, and the batch whose pages blob holds it. */
export type StagedPageRef = Omit<StagedPage, 'markdown'> & { batch: number };

/** How many batches' pages the commit keeps at once: its reads in tree order mostly follow the staging order. */
const BATCHES_KEPT = 4;

/** The pages of an import's batches, read back one batch blob at a time. */
export class StagedBatches {
  /** the markdown of the batches read last, by page id (oldest first) */
  private readonly kept = new Map<number, Map<string, string>>();
  /** blobs read, counting reads again of a batch no longer kept */
  reads = 0;

  constructor(
    private readonly blobs: BlobStore,
    private readonly importRunId: string,
    readonly batches: number,
  ) {}

  private async read(batch: number): Promise<StagedPage[]> {
    this.reads++;
    return readJson<StagedPage[]>(this.blobs, pagesKey(this.importRunId, batch));
  }

  /** Every staged page without its markdown, in the order staged. */
  async refs(): Promise<StagedPageRef[]> {
    const out: StagedPageRef[] = [];
    for (let batch = 0; batch < this.batches; batch++)
      for (const { markdown: _markdown, ...page } of await this.read(batch)) out.push({ ...page, batch });
    return out;
  }

  async markdown(page: { id: string; batch: number }): Promise<string> {
    let texts = this.kept.get(page.batch);
    if (texts) this.kept.delete(page.batch);
    else texts = new Map((await this.read(page.batch)).map((p) => [p.id, p.markdown]));
    this.kept.set(page.batch, texts);
    if (this.kept.size > BATCHES_KEPT) this.kept.delete(this.kept.keys().next().value!);
    return texts.get(page.id) ?? '';
  }
}

/**
 * Removes what an ended run staged: its states and pages, and its images unless its commit
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
  for (let n = 0; n <= batches; n++) keys.push(stateKey(importRunId, n + 1), pagesKey(importRunId, n));
  if (last && !committed) keys.push(...new Set(last.files.map((f) => f.blob)));
  for (const key of keys) {
    try {
      await deps.blobs.delete(key);
    } catch (err) {
      deps.logger.warn({ err, key }, 'could not remove a staged import blob');
    }
  }
}
