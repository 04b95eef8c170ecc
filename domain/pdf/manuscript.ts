/**
 * What a PDF shows, read from the change request's revision: its pages in tree order (all of them,
 * one page and its descendants, or one page alone) with their markdown, and the image files they
 * show. The collect step stores it as a blob for the render step.
 */

import { ChangeRequest } from '../../entities/ChangeRequest';
import type { PdfExport } from '../../entities/PdfExport';
import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { ObjectStore } from '../content/objects';
import { ContentReader, PageNode, PageRecord } from '../content/reader';
import { JobError } from '../jobs/job-error';

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

export interface ManuscriptPage {
  id: string;
  title: string;
  description: string | null;
  /** 0 for the pages at the top of the PDF */
  depth: number;
  path: string;
  markdown: string;
}

export interface ManuscriptImage {
  name: string;
  contentType: string;
  /** blob key of the bytes */
  blob: string;
}

export interface Manuscript {
  title: string;
  subtitle: string;
  /** what part of the change request this is, when not all of it */
  scope: string | null;
  revisionId: string;
  generatedAt: string;
  pages: ManuscriptPage[];
  /** by file id: the PNG and JPEG files the pages show */
  images: Record<string, ManuscriptImage>;
}

interface Selected {
  page: PageRecord;
  depth: number;
}

function flatten(nodes: PageNode[], depth: number, into: Selected[]): Selected[] {
  for (const node of nodes) {
    into.push({ page: node, depth });
    flatten(node.children, depth + 1, into);
  }
  return into;
}

async function selectedPages(reader: ContentReader, row: PdfExport): Promise<Selected[]> {
  if (!row.pageId) return flatten(await reader.tree(), 0, []);
  const page = await reader.page(row.pageId);
  if (!page) throw new JobError(PDF_FAILURES.sourceGone, `page ${row.pageId} is not in revision ${row.revisionId}`);
  const top = [{ page, depth: 0 }];
  return row.only ? top : flatten(await reader.subtree(page), 1, top);
}

function manuscriptPage({ page, depth }: Selected): ManuscriptPage {
  const { version } = page;
  return {
    id: page.id,
    title: version.title,
    description: version.description,
    depth,
    path: page.path,
    markdown: version.markdown,
  };
}

/** The export's bounds on what it reads, before it is written down: a sheet per page at least, and the markdown's bytes. */
function checkSelection(selected: Selected[], limits: PdfLimits): void {
  // the title page and a contents sheet come first
  if (selected.length + 2 > limits.sheets)
    throw pdfTooLarge(`have more than ${limits.sheets} sheets (${selected.length} pages)`);
  let bytes = 0;
  for (const { page } of selected) bytes += Buffer.byteLength(page.version.markdown);
  if (bytes > limits.bytes) throw pdfTooLarge(`be made of more than ${limits.bytes} bytes of markdown`);
}

export async function buildManuscript(db: Db, row: PdfExport, now: Date, limits: PdfLimits): Promise<Manuscript> {
  const [space, changeRequest, revision] = await Promise.all([
    db.findOneBy(Space, { id: row.spaceId }),
    db.findOneBy(ChangeRequest, { id: row.changeRequestId }),
    db.findOneBy(Revision, { id: row.revisionId }),
  ]);
  if (!space || !changeRequest || !revision)
    throw new JobError(PDF_FAILURES.sourceGone, 'the change request or its revision no longer exists');
  const reader = new ContentReader(new ObjectStore(db), revision.root);
  const selected = await selectedPages(reader, row);
  checkSelection(selected, limits);
  const fileIds = new Set(
    selected.flatMap(({ page }) => page.version.links.filter((l) => l.kind === 'file').map((l) => l.target)),
  );
  const images: Record<string, ManuscriptImage> = {};
  for (const { id, file } of await reader.files()) {
    if (fileIds.has(id) && EMBEDDABLE_IMAGES.includes(file.contentType))
      images[id] = {
        name: file.name,
        contentType: file.contentType,
        blob: file.blob,
      };
  }
  const number = `Change request #${changeRequest.number}`;
  return {
    title: space.title,
    subtitle: changeRequest.subject ? `${number}: ${changeRequest.subject}` : number,
    scope: row.pageId
      ? `The page “${selected[0].page.version.title}”${row.only ? ' alone' : ' and its sub-pages'}`
      : null,
    revisionId: revision.id,
    generatedAt: now.toISOString(),
    pages: selected.map(manuscriptPage),
    images,
  };
}
