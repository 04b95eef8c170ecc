/**
 * One batch of staging: what a source adds (pages, images, links between documents) goes into the
 * import's state and this batch's pages blob, saved together at the end so a retried batch starts
 * over from the state before it. The byte budget (IMPORT_MAX_BYTES) is counted here for every source.
 */
import { randomBytes } from 'crypto';
import type { Logger } from 'pino';
import type { Config } from '../../platform/config';
import type { BlobStore } from '../../platform/storage/blob-store';
import { storeFile } from '../content/uploads';
import { newId } from '../ids';
import { linkPlaceholder } from './links';
import { ImportState, imageKey, pagesKey, StagedPage, sourceKey, stateKey, writeJson } from './staging';

export type ImportLimits = Config['imports'];

/** Pages' titles are cut to this many characters (code points). */
const MAX_TITLE = 200;

export function initialState(): ImportState {
  return {
    batch: 0,
    finished: false,
    nonce: randomBytes(6).toString('hex'),
    staged: 0,
    files: [],
    images: {},
    processed: 0,
    bytes: 0,
    crawl: null,
    archiveDocuments: null,
  };
}

/** `getting-started.html` -> `Getting started`: a title for a page known only by its path. */
export function titleOfSegment(segment: string): string {
  const words = decodeURIComponent(segment)
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Untitled';
}

export class StagingBatch {
  /** the pages this batch staged: the only pages staging holds in memory */
  private readonly pages: StagedPage[] = [];
  /** images being fetched, so pages fetched at once that show the same image fetch it once */
  private readonly loading = new Map<string, Promise<string | null>>();
  /** blobs this batch stored beside its texts and state, and those the state before it references */
  private readonly stored: string[] = [];
  private readonly saved: Set<string>;

  constructor(
    readonly state: ImportState,
    readonly importRunId: string,
    private readonly blobs: BlobStore,
    readonly limits: ImportLimits,
  ) {
    this.saved = new Set(state.files.map((f) => f.blob));
  }

  get remainingBytes(): number {
    return Math.max(0, this.limits.maxBytes - this.state.bytes);
  }

  /** Counts bytes read; false once the import's budget is spent. */
  spend(bytes: number): boolean {
    this.state.bytes += bytes;
    return this.state.bytes <= this.limits.maxBytes;
  }

  /**
   * The placeholder a link to another document of the import gets: the commit makes it a page link
   * when `target` was imported, else `href` (with `hash`).
   */
  link(target: string, href: string, hash = ''): string {
    return linkPlaceholder(this.state.nonce, { target, href, hash });
  }

  addPage(page: Omit<StagedPage, 'id' | 'title' | 'markdown'> & { title: string | null }, markdown: string): string {
    const id = newId();
    const fallback = titleOfSegment(page.path[page.path.length - 1] ?? 'Untitled');
    const title = [...(page.title?.replace(/\s+/g, ' ').trim() || fallback)].slice(0, MAX_TITLE).join('');
    this.pages.push({ ...page, id, title, markdown });
    this.state.staged++;
    return id;
  }

  /** The reference `load` gives the image under `source`, loaded once however many pages show it. */
  image(source: string, load: () => Promise<string | null>): Promise<string | null> {
    const known = this.state.images[source];
    if (known !== undefined) return Promise.resolve(known && `file:${known}`);
    let pending = this.loading.get(source);
    if (!pending) {
      pending = load().finally(() => this.loading.delete(source));
      this.loading.set(source, pending);
    }
    return pending;
  }

  noteImageFailed(source: string): void {
    this.state.images[source] = null;
  }

  /** Stores an image's bytes under the import's folder; its file id, for `file:<id>` references. */
  async addImage(source: string, upload: { name: string; contentType: string; bytes: Buffer }): Promise<string> {
    const entry = await storeFile(this.blobs, (sha256) => imageKey(this.importRunId, sha256), upload);
    this.stored.push(entry.blob);
    const id = newId();
    this.state.files.push({ id, ...entry });
    this.state.images[source] = id;
    return id;
  }

  /** Keeps the fetched source for the batches after this one (an archive staged in several). */
  async keepSource(bytes: Buffer): Promise<void> {
    const key = sourceKey(this.importRunId);
    this.stored.push(key);
    await this.blobs.put(key, bytes, 'application/octet-stream');
  }

  keptSource(): Promise<Buffer> {
    return this.blobs.read(sourceKey(this.importRunId));
  }

  /**
   * Removes the blobs this batch stored that the state before it does not reference: no saved state
   * names them. For a batch no retry follows (a retry stores the same keys, content-addressed).
   */
  async discardUnsaved(logger: Logger): Promise<void> {
    for (const key of new Set(this.stored)) {
      if (this.saved.has(key)) continue;
      await this.blobs.delete(key).catch((err) => logger.warn({ err, key }, 'could not remove a staged import blob'));
    }
  }

  /** Saves this batch's pages and the state after it. */
  async save(): Promise<void> {
    const batch = this.state.batch;
    await writeJson(this.blobs, pagesKey(this.importRunId, batch), this.pages);
    this.state.batch = batch + 1;
    await writeJson(this.blobs, stateKey(this.importRunId, this.state.batch), this.state);
  }
}
