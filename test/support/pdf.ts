/**
 * Reads a PDF back with pdf.js (pdfjs-dist 3, the last release with a CommonJS build that jest
 * loads as is): the text of every sheet, the outline as a tree of titles, and the named
 * destinations' sheets, so tests check what a reader of the file would see.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/pdf';

export interface OutlineNode {
  title: string;
  items: OutlineNode[];
}

export interface ReadPdf {
  /** the text of each sheet: its lines, runs of spaces as one */
  sheets: string[];
  outline: OutlineNode[];
  /** how many image objects each sheet paints */
  images: number[];
}

let pdfjs: typeof import('pdfjs-dist') | null = null;

/** pdf.js warns on load that it has no canvas for rendering; the tests only read text. */
function load(): typeof import('pdfjs-dist') {
  if (!pdfjs) {
    // biome-ignore lint/suspicious/noConsole: silences pdf.js's load-time warning
    const log = console.log;
    console.log = () => undefined;
    try {
      pdfjs = require('pdfjs-dist/legacy/build/pdf.js') as typeof import('pdfjs-dist');
    } finally {
      console.log = log;
    }
  }
  return pdfjs;
}

function outlineOf(items: Array<{ title: string; items: unknown[] }> | null): OutlineNode[] {
  return (items ?? []).map((i) => ({
    title: i.title,
    items: outlineOf(i.items as Array<{ title: string; items: unknown[] }>),
  }));
}

export async function readPdf(bytes: Buffer): Promise<ReadPdf> {
  const lib = load();
  const pdf: PDFDocumentProxy = await lib.getDocument({
    data: new Uint8Array(bytes),
    verbosity: 0,
    isEvalSupported: false,
    useSystemFonts: false,
  }).promise;
  try {
    const sheets: string[] = [];
    const images: number[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      // pdf.js gives the gaps between words and runs as items of their own
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      sheets.push(text.replace(/ {2,}/g, ' ').replace(/ *\n */g, '\n'));
      const operators = await page.getOperatorList();
      images.push(operators.fnArray.filter((fn) => fn === lib.OPS.paintImageXObject).length);
    }
    return { sheets, outline: outlineOf(await pdf.getOutline()), images };
  } finally {
    await pdf.destroy();
  }
}
