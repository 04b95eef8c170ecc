/**
 * Renders a manuscript to a PDF with pdfkit: a title page, a table of contents with page numbers
 * (each entry a link), then every page of the manuscript from a new sheet, with outline bookmarks
 * for every page (nested as the page tree) and heading, and "n / total" in every footer but the
 * title page's. Each sheet is written out as the next one starts, so its memory is one sheet's: a first pass
 * lays the pages out to learn the numbers the contents and footers show (renderPdf). The pages are read from the
 * manuscript file as they are laid out, and the file's bytes go to a file.
 */

import { closeSync, openSync, writeSync } from 'fs';
import { markdownToDocument } from '../content/document';
import { BlockWriter, LinkTargets } from './blocks';
import { Canvas, COLORS, createDocument, Doc, forgetWordLayouts, PAGE, TYPE } from './canvas';
import { PdfImages } from './images';
import { type PdfLimits, pdfTooLarge } from './manuscript';
import type { ManuscriptImage, ManuscriptSource, PageIndexEntry } from './manuscript-file';

export interface RenderOptions {
  /** Reads an image's bytes. */
  loadImage(image: ManuscriptImage): Promise<Buffer>;
  /** Called after each page of the manuscript; awaited, so it may also yield or throw to stop. */
  onPage?(done: number, total: number): Promise<void>;
  /** PDF_MAX_SHEETS and PDF_MAX_BYTES: past either the render stops with PDF_TOO_LARGE. */
  limits: PdfLimits;
}

export interface RenderedPdf {
  /** bytes written */
  bytes: number;
  /** sheets of the PDF */
  pageCount: number;
}

const TOC = { size: TYPE.body, line: 17, indent: 12, numberWidth: 36, title: 20 };

const destination = (pageId: string) => `page-${pageId}`;

/** Pages whose words' shapes the fonts keep (forgetWordLayouts): enough to reuse the common words of a chapter. */
const WORD_LAYOUT_PAGES = 50;

function titlePage(canvas: Canvas, source: ManuscriptSource): void {
  const { doc } = canvas;
  const manuscript = source.head;
  doc.addPage();
  doc.y = canvas.top + canvas.contentHeight * 0.3;
  canvas.paragraph([{ text: manuscript.title || 'Untitled space', face: 'bold', color: COLORS.text }], 28, {
    align: 'center',
  });
  canvas.space(14);
  canvas.paragraph([{ text: manuscript.subtitle, face: 'regular', color: COLORS.text }], 15, { align: 'center' });
  if (manuscript.scope) {
    canvas.space(8);
    canvas.paragraph([{ text: manuscript.scope, face: 'italic', color: COLORS.muted }], 12, { align: 'center' });
  }
  doc.y = canvas.bottom - 60;
  const pages = source.index.length === 1 ? '1 page' : `${source.index.length} pages`;
  for (const line of [
    `Revision ${manuscript.revisionId}`,
    `${pages}, generated ${manuscript.generatedAt.replace('T', ' ').slice(0, 16)} UTC`,
  ]) {
    canvas.paragraph([{ text: line, face: 'regular', color: COLORS.muted }], TYPE.small + 1, { align: 'center' });
  }
}

/** Sheets the contents take: one line per page of the manuscript, the first sheet below its title. */
function contentsSheets(canvas: Canvas, entries: number): number {
  const first = Math.floor((canvas.contentHeight - TOC.title * 2) / TOC.line);
  const other = Math.floor(canvas.contentHeight / TOC.line);
  return entries <= first ? 1 : 1 + Math.ceil((entries - first) / other);
}

/**
 * Writes the contents, on the sheets after the title page: one line per page of the manuscript with the sheet its
 * page starts on (known from the first pass), filling exactly `sheets` sheets.
 */
function contents(canvas: Canvas, index: PageIndexEntry[], startSheets: readonly number[], sheets: number): void {
  const { doc } = canvas;
  const firstSheet = canvas.pageIndex + 1;
  doc.addPage();
  doc.outline.addItem('Contents');
  canvas.paragraph([{ text: 'Contents', face: 'bold', color: COLORS.text }], TOC.title);
  canvas.space(TOC.title * 0.6);
  index.forEach((page, i) => {
    if (doc.y + TOC.line > canvas.bottom) doc.addPage();
    const y = doc.y;
    const x = canvas.left + page.depth * TOC.indent;
    const number = String(startSheets[i] + 1);
    const face = page.depth === 0 ? 'bold' : 'regular';
    const titleWidth = canvas.left + canvas.width - TOC.numberWidth - x;
    const title = canvas.fitted(page.title || 'Untitled', face, TOC.size, titleWidth - 8);
    canvas.line(title, face, TOC.size, COLORS.text, { x, y, width: titleWidth, goTo: destination(page.id) });
    // a dotted leader from the title to its number
    const leaderFrom = x + doc.font(face).fontSize(TOC.size).widthOfString(title) + 4;
    const leaderTo = canvas.left + canvas.width - TOC.numberWidth + 4;
    if (leaderTo > leaderFrom) {
      const baseline = y + TOC.size * 0.95;
      doc
        .save()
        .moveTo(leaderFrom, baseline)
        .lineTo(leaderTo, baseline)
        .lineWidth(0.6)
        .dash(0.6, { space: 2.4 })
        .strokeColor(COLORS.muted)
        .stroke()
        .restore();
    }
    canvas.line(number, 'regular', TOC.size, COLORS.text, {
      x: canvas.left + canvas.width - TOC.numberWidth,
      y,
      width: TOC.numberWidth,
      align: 'right',
      goTo: destination(page.id),
    });
    doc.y = y + TOC.line;
  });
  // the page numbers were counted with exactly this many sheets of contents
  const used = canvas.pageIndex - firstSheet + 1;
  if (used > sheets) throw new Error(`the contents took ${used} sheets, ${sheets} were counted`);
  for (let i = used; i < sheets; i++) doc.addPage();
}

/** "n / total" in the bottom margin of sheet `index` (from 0), on every sheet but the title page. */
function footer(canvas: Canvas, index: number, total: number): void {
  if (index === 0) return;
  const { doc } = canvas;
  // the footer sits in the bottom margin, where pdfkit would otherwise start a new page
  const bottom = doc.page.margins.bottom;
  const y = doc.y;
  doc.page.margins.bottom = 0;
  // the page's full width, whatever column (an indented quote) the sheet ended in
  canvas.line(`${index + 1} / ${total}`, 'regular', TYPE.small, COLORS.muted, {
    x: PAGE.margin,
    y: doc.page.height - PAGE.footer,
    width: PAGE.width - 2 * PAGE.margin,
    align: 'center',
  });
  doc.page.margins.bottom = bottom;
  doc.y = y;
}

/**
 * Writes the document's bytes into the file descriptor `fd` as pdfkit makes them, or drops them (no `fd`: the first
 * pass); resolves once the document ended, and counts the bytes so far. The writes are synchronous: pdfkit ignores
 * backpressure, so a stream would buffer the whole file while the layout keeps the CPU.
 */
function finished(doc: Doc, fd: number | null): { output: Promise<void>; written(): number } {
  let written = 0;
  // pdfkit makes a chunk per line of the file: they are gathered into writes of WRITE_BYTES
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (fd !== null && pendingBytes) writeSync(fd, Buffer.concat(pending, pendingBytes));
    pending = [];
    pendingBytes = 0;
  };
  doc.on('data', (chunk: Buffer) => {
    written += chunk.length;
    if (fd === null) return;
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes >= WRITE_BYTES) flush();
  });
  const output = new Promise<void>((resolve, reject) => {
    doc.on('end', () => {
      flush();
      resolve();
    });
    doc.on('error', reject);
  });
  return { output, written: () => written };
}

const WRITE_BYTES = 64 * 1024;

/** Where the first pass found each page to start, and how many sheets the PDF has. */
interface Layout {
  startSheets: number[];
  sheets: number;
}

/**
 * Renders in two passes, each reading the pages from the manuscript file and writing its sheets out as they are laid
 * out, so memory stays that of a page and a sheet: the first lays the pages out into nothing to learn where each
 * starts and how many sheets there are; the second writes the PDF into `file` with its contents and footers, now that
 * every number is known. Only the second reports progress (the first heartbeats with none done), so the pages
 * counted are pages written.
 */
export async function renderPdf(source: ManuscriptSource, options: RenderOptions, file: string): Promise<RenderedPdf> {
  const layout = await layOut(source, options, null, null);
  const fd = openSync(file, 'w');
  const { bytes, layout: written } = await layOut(source, options, layout, fd).finally(() => closeSync(fd));
  // the same manuscript lays out the same way: a difference would put wrong numbers in the contents
  if (written.sheets !== layout.sheets)
    throw new Error(`the PDF took ${written.sheets} sheets, ${layout.sheets} were counted`);
  return { bytes, pageCount: written.sheets };
}

async function layOut(source: ManuscriptSource, options: RenderOptions, planned: null, fd: null): Promise<Layout>;
async function layOut(
  source: ManuscriptSource,
  options: RenderOptions,
  planned: Layout,
  fd: number,
): Promise<{ bytes: number; layout: Layout }>;
async function layOut(
  source: ManuscriptSource,
  options: RenderOptions,
  planned: Layout | null,
  fd: number | null,
): Promise<Layout | { bytes: number; layout: Layout }> {
  const { limits } = options;
  const { index } = source;
  const doc = createDocument({ title: source.head.title, subject: source.head.subtitle });
  // the first pass drops what it writes; the second writes the file, within PDF_MAX_BYTES
  const { output, written } = finished(doc, fd);
  const checkBytes = () => {
    if (written() > limits.bytes) throw pdfTooLarge(`be larger than ${limits.bytes} bytes`);
  };
  const canvas = new Canvas(doc, (sheet) => planned && footer(canvas, sheet, planned.sheets));
  // every sheet is counted as pdfkit adds it (a long page adds many)
  doc.on('pageAdded', () => {
    if (canvas.pageIndex + 1 > limits.sheets) throw pdfTooLarge(`have more than ${limits.sheets} sheets`);
    checkBytes();
  });
  const images = new PdfImages(canvas, source.images, (image) => {
    checkBytes();
    return options.loadImage(image);
  });
  const links: LinkTargets = {
    byId: new Map(index.map((p) => [p.id, destination(p.id)])),
    byPath: new Map(index.map((p) => [p.path, destination(p.id)])),
  };

  titlePage(canvas, source);
  // the title page, the contents and a sheet per page at least: refused before a page is drawn
  const sheets = contentsSheets(canvas, index.length);
  if (1 + sheets + index.length > limits.sheets)
    throw pdfTooLarge(`have more than ${limits.sheets} sheets (${index.length} pages)`);
  if (planned) contents(canvas, index, planned.startSheets, sheets);
  else {
    for (let i = 0; i < sheets; i++) doc.addPage();
    doc.outline.addItem('Contents');
  }

  // the outline item of the last page seen at each depth: a page nests under the one above it
  const parents: PDFKit.PDFOutline[] = [];
  const startSheets: number[] = [];
  let i = 0;
  for await (const page of source.pages()) {
    doc.addPage();
    startSheets.push(canvas.pageIndex);
    // links land at the top of the page's first sheet, fitted to its width (FitH counts from the bottom)
    doc.addNamedDestination(destination(page.id), 'FitH', doc.page.height - canvas.top + 24);
    const parent = page.depth > 0 ? parents[Math.min(page.depth, parents.length) - 1] : undefined;
    const item = (parent ?? doc.outline).addItem(page.title || 'Untitled');
    parents.length = Math.min(page.depth, parents.length);
    parents.push(item);

    canvas.paragraph([{ text: page.title || 'Untitled', face: 'bold', color: COLORS.text }], 22);
    if (page.description) {
      canvas.space(2);
      canvas.paragraph([{ text: page.description, face: 'italic', color: COLORS.muted }], TYPE.body + 1);
    }
    canvas.space(6);
    canvas.horizontalRule();
    canvas.space(10);
    await new BlockWriter(canvas, images, links, { page: item, headings: [] }).blocks(
      markdownToDocument(page.markdown).nodes,
    );
    checkBytes();
    i++;
    if (i % WORD_LAYOUT_PAGES === 0) forgetWordLayouts(doc);
    await options.onPage?.(planned ? i : 0, index.length);
  }

  canvas.finish();
  const layout = { startSheets, sheets: canvas.pageIndex + 1 };
  doc.end();
  await output;
  if (!planned) return layout;
  if (written() > limits.bytes) throw pdfTooLarge(`be larger than ${limits.bytes} bytes`);
  return { bytes: written(), layout };
}
