/**
 * `zip`: an archive of markdown files and images, its folders becoming the page tree (`README.md` or
 * `index.md` is its folder's page). Archives are unpacked with yauzl under zip-bomb limits: at most
 * IMPORT_MAX_ARCHIVE_ENTRIES entries, at most the import's remaining bytes unpacked (yauzl checks
 * every entry's bytes against the size it declares, so a lying header fails too).
 */
import * as yauzl from 'yauzl';
import { JobError } from '../../jobs/job-error';
import { IMPORT_FAILURES } from '../failures';
import { fileNameOf, imageTypeOfName } from '../images';
import { fetchDocument, SourceContext, unreadable } from './context';
import { markdownToPage } from './markdown';

/** Resolves an archive's relative links as URLs of this host, so a link's target is its path in the archive. */
const ARCHIVE_HOST = 'archive.invalid';
const MARKDOWN = /\.(md|markdown)$/i;
const FOLDER_PAGE = /^(readme|index)$/i;

function tooLarge(message: string): JobError {
  return new JobError(IMPORT_FAILURES.limit, message);
}

/** An archive's files by path (folders, `__MACOSX/` and dotfiles left out), read one at a time. */
interface Archive {
  files: Map<string, yauzl.Entry>;
  /** the bytes they unpack to, as their entries declare (each entry is checked against it as it is read) */
  bytes: number;
  read(entry: yauzl.Entry): Promise<Buffer>;
  close(): void;
}

/** Opens an archive within the limits; its entries are listed, none unpacked yet. */
async function openArchive(bytes: Buffer, limits: { maxEntries: number; maxBytes: number }): Promise<Archive> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  } catch (err) {
    throw unreadable(`not a zip archive: ${(err as Error).message}`);
  }
  const read = async (entry: yauzl.Entry) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    } catch (err) {
      throw unreadable(`the archive could not be read: ${(err as Error).message}`);
    }
  };
  try {
    if (zip.entryCount > limits.maxEntries)
      throw tooLarge(`the archive holds ${zip.entryCount} entries; at most ${limits.maxEntries} are read`);
    const files = new Map<string, yauzl.Entry>();
    let total = 0;
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name.endsWith('/') || name.split('/').some((s) => s.startsWith('.') || s === '__MACOSX')) continue;
      total += entry.uncompressedSize;
      if (total > limits.maxBytes) throw tooLarge(`the archive unpacks to more than ${limits.maxBytes} bytes`);
      files.set(name, entry);
    }
    return { files, bytes: total, read, close: () => zip.close() };
  } catch (err) {
    zip.close();
    if (err instanceof JobError) throw err;
    throw unreadable(`the archive could not be read: ${(err as Error).message}`);
  }
}

/** Every file of the archive by its path, unpacked within the limits (a Word document is checked so). */
export async function readArchive(
  bytes: Buffer,
  limits: { maxEntries: number; maxBytes: number },
): Promise<Map<string, Buffer>> {
  const archive = await openArchive(bytes, limits);
  try {
    const files = new Map<string, Buffer>();
    for (const [name, entry] of archive.files) files.set(name, await archive.read(entry));
    return files;
  } finally {
    archive.close();
  }
}

/** The archive's paths without the one folder that holds everything (an archive of a folder). */
function withoutCommonFolder<T>(files: Map<string, T>): Map<string, T> {
  const tops = new Set([...files.keys()].map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  const [top] = tops;
  if (tops.size !== 1 || !top) return files;
  return new Map([...files].map(([p, b]) => [p.slice(top.length + 1), b]));
}

/** `guide/setup.md` -> [guide, setup]; `guide/README.md` -> [guide]. */
function treePath(path: string): string[] {
  const segments = path.replace(MARKDOWN, '').split('/');
  if (FOLDER_PAGE.test(segments[segments.length - 1])) segments.pop();
  return segments;
}

/** Folder by folder, a folder's own page first. */
function byTreePath(a: string, b: string): number {
  const [pa, pb] = [treePath(a), treePath(b)];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const order = pa[i].localeCompare(pb[i]);
    if (order) return order;
  }
  return pa.length - pb.length;
}

function archivePath(url: URL): string | null {
  if (url.host !== ARCHIVE_HOST) return null;
  try {
    return decodeURIComponent(url.pathname.slice(1));
  } catch {
    return null;
  }
}

/**
 * Stages the next IMPORT_BATCH_PAGES documents of the archive. The first batch fetches it, checks it
 * against the limits and keeps it among the staging; the next ones read it from there and unpack only
 * their documents and the images these show, so a retried batch goes on from the last one saved.
 */
export async function stageZip(ctx: SourceContext): Promise<void> {
  const { batch } = ctx;
  const { state, limits } = batch;
  const first = state.archiveDocuments === null;
  let bytes: Buffer;
  if (first) {
    bytes = (await fetchDocument(ctx, ctx.run.url, 'application/zip, application/octet-stream')).body;
  } else bytes = await batch.keptSource();
  // a later batch reads what the first one checked and counted
  const archive = await openArchive(bytes, {
    maxEntries: limits.maxArchiveEntries,
    maxBytes: first ? batch.remainingBytes : limits.maxBytes,
  });
  try {
    const files = withoutCommonFolder(archive.files);
    const documents = [...files.keys()]
      .filter((p) => MARKDOWN.test(p))
      .sort(byTreePath)
      .slice(0, limits.maxPages);
    if (!documents.length) throw unreadable('the archive holds no markdown file (.md)');
    if (first) {
      batch.spend(archive.bytes);
      state.archiveDocuments = documents.length;
      if (documents.length > limits.batchPages) await batch.keepSource(bytes);
    }
    const imported = new Set(documents);
    /** The document a link names: the file itself, or the page of the folder it names. */
    const documentAt = (target: string): string | undefined => {
      const path = target.replace(/^\/+|\/+$/g, '');
      return [path, `${path}/README.md`, `${path}/readme.md`, `${path}/index.md`].find((p) => imported.has(p));
    };

    for (const path of documents.slice(state.processed, state.processed + limits.batchPages)) {
      ctx.live.heartbeat({ done: state.processed, total: documents.length });
      const page = await markdownToPage((await archive.read(files.get(path)!)).toString('utf8'), {
        baseUrl: `http://${ARCHIVE_HOST}/${path.split('/').map(encodeURIComponent).join('/')}`,
        link: (url) => {
          const target = archivePath(url);
          const document = target === null ? undefined : documentAt(target);
          if (target === null) return url.href;
          return document ? batch.link(document, target, url.hash) : target;
        },
        image: async (url) => {
          const target = archivePath(url);
          if (target === null) return url.href;
          return batch.image(target, async () => {
            const entry = files.get(target);
            const contentType = imageTypeOfName(target);
            if (!entry || !contentType) return null;
            ctx.live.heartbeat({ done: state.processed, total: documents.length });
            const upload = { name: fileNameOf(target, 'image'), contentType, bytes: await archive.read(entry) };
            return `file:${await batch.addImage(target, upload)}`;
          });
        },
      });
      batch.addPage({ path: treePath(path), title: page.title, source: path }, page.markdown);
      state.processed++;
    }
    state.finished = state.processed >= documents.length;
  } finally {
    archive.close();
  }
}
