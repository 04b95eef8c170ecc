/**
 * What a PDF shows, read from the change request's revision: its pages in tree order (all of them,
 * one page and its descendants, or one page alone) with their markdown, and the image files they
 * show. The collect step writes it as a file of JSON lines (manuscript-file.ts) and stores it as a blob for the
 * render step.
 */

import { ChangeRequest } from '../../entities/ChangeRequest';
import type { PdfExport } from '../../entities/PdfExport';
import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import type { PageVersion } from '../content/model';
import { ObjectStore } from '../content/objects';
import { ContentReader, type PageOutline } from '../content/reader';
import { JobError } from '../jobs/job-error';
import type { ManuscriptImage, ManuscriptWriter } from './manuscript-file';

export const PDF_FAILURES = {
  sourceGone: 'PDF_SOURCE_GONE',
  /** past PDF_MAX_SHEETS or PDF_MAX_BYTES: the same revision would fail again */
  tooLarge: 'PDF_TOO_LARGE',
} as const;

/** PDF_MAX_SHEETS and PDF_MAX_BYTES (config.pdf). */
export interface PdfLimits {
  sheets: number;
  bytes: number;
}

export function pdfTooLarge(rule: string): JobError {
  return new JobError(PDF_FAILURES.tooLarge, `the PDF would ${rule}`);
}

/** Image types the renderer embeds; other files are named in the text instead. */
export const EMBEDDABLE_IMAGES = ['image/png', 'image/jpeg'];

interface Selected {
  page: PageOutline;
  depth: number;
}

function flatten(nodes: PageOutline[], depth: number, into: Selected[]): Selected[] {
  for (const node of nodes) {
    into.push({ page: node, depth });
    flatten(node.children, depth + 1, into);
  }
  return into;
}

function find(nodes: PageOutline[], id: string): PageOutline | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const below = find(node.children, id);
    if (below) return below;
  }
  return undefined;
}

/** The pages the export shows, in order, from the revision's outline: no page's content is read yet. */
async function selectedPages(reader: ContentReader, row: PdfExport): Promise<Selected[]> {
  const outline = await reader.outline();
  if (!row.pageId) return flatten(outline, 0, []);
  const page = find(outline, row.pageId);
  if (!page) throw new JobError(PDF_FAILURES.sourceGone, `page ${row.pageId} is not in revision ${row.revisionId}`);
  const top = [{ page, depth: 0 }];
  return row.only ? top : flatten(page.children, 1, top);
}

/** Under the space's title: the change request, or what a space's PDF shows. */
function subtitleOf(changeRequest: ChangeRequest | null): string {
  if (!changeRequest) return 'The content of the space';
  const number = `Change request #${changeRequest.number}`;
  return changeRequest.subject ? `${number}: ${changeRequest.subject}` : number;
}

/** Page versions read per batch: what the collect step holds of the pages' content at once. */
const PAGES_PER_READ = 200;

/**
 * Writes the export's manuscript into `out`, a batch of pages at a time, so its memory is a batch's whatever the
 * size of the change request; refuses (PDF_TOO_LARGE) a selection past PDF_MAX_SHEETS or PDF_MAX_BYTES of markdown.
 * Returns the number of pages written.
 */
export async function writeManuscript(
  db: Db,
  row: PdfExport,
  now: Date,
  limits: PdfLimits,
  out: ManuscriptWriter,
): Promise<number> {
  const [space, changeRequest, revision] = await Promise.all([
    db.findOneBy(Space, { id: row.spaceId }),
    row.changeRequestId ? db.findOneBy(ChangeRequest, { id: row.changeRequestId }) : null,
    db.findOneBy(Revision, { id: row.revisionId }),
  ]);
  if (!space || (row.changeRequestId && !changeRequest) || !revision)
    throw new JobError(
      PDF_FAILURES.sourceGone,
      `the ${row.changeRequestId ? 'change request' : 'space'} or its revision no longer exists`,
    );
  const reader = new ContentReader(new ObjectStore(db), revision.root);
  const selected = await selectedPages(reader, row);
  // the title page and a contents sheet come first
  if (selected.length + 2 > limits.sheets)
    throw pdfTooLarge(`have more than ${limits.sheets} sheets (${selected.length} pages)`);
  await out.write({
    head: {
      title: space.title,
      subtitle: subtitleOf(changeRequest),
      scope: row.pageId
        ? `The page “${selected[0].page.entry.title}”${row.only ? ' alone' : ' and its sub-pages'}`
        : null,
      revisionId: revision.id,
      generatedAt: now.toISOString(),
    },
  });
  const fileIds = new Set<string>();
  let bytes = 0;
  for (let i = 0; i < selected.length; i += PAGES_PER_READ) {
    const batch = selected.slice(i, i + PAGES_PER_READ);
    // a store per batch: its cache of versions goes with the batch
    const versions = await new ObjectStore(db).getMany<PageVersion>(batch.map(({ page }) => page.entry.v));
    for (const { page, depth } of batch) {
      const version = versions.get(page.entry.v)!;
      bytes += Buffer.byteLength(version.markdown);
      if (bytes > limits.bytes) throw pdfTooLarge(`be made of more than ${limits.bytes} bytes of markdown`);
      for (const link of version.links) if (link.kind === 'file') fileIds.add(link.target);
      await out.write({
        page: {
          id: page.id,
          title: version.title,
          description: version.description,
          depth,
          path: page.path,
          markdown: version.markdown,
        },
      });
    }
  }
  const images: Record<string, ManuscriptImage> = {};
  for (const { id, file } of await reader.files()) {
    if (fileIds.has(id) && EMBEDDABLE_IMAGES.includes(file.contentType))
      images[id] = { name: file.name, contentType: file.contentType, blob: file.blob };
  }
  await out.write({ images });
  return selected.length;
}
