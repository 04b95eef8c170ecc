/**
 * The page geometry, type and colours of the PDF, and a thin layer over pdfkit that the renderers
 * share: a text column that blocks indent, rich text runs in one paragraph, page breaks before
 * what would not fit, and bars drawn beside content that may span pages, each sheet's part as the sheet ends.
 */
import PDFDocument from 'pdfkit';
import { drawable, FACES, Face, fontBytes } from './fonts';

/** A4 in points */
export const PAGE = { size: 'A4' as const, width: 595.28, margin: 64, footer: 34 };

export const TYPE = { body: 10.5, small: 8.5, code: 9, lineGap: 2.5, headings: [18, 15, 13, 11.5, 11, 10.5] };

export const COLORS = {
  text: '#1f2328',
  muted: '#656d76',
  link: '#0969da',
  code: '#9a1b3a',
  codeBackground: '#f3f4f6',
  rule: '#d0d7de',
  tableHeader: '#eef1f4',
  quote: '#57606a',
  hints: { info: '#0969da', success: '#1a7f37', warning: '#9a6700', danger: '#cf222e' } as Record<string, string>,
};

/** A stretch of text in one face and colour, optionally a link (to a URL, or to a named destination in the PDF). */
export interface Run {
  text: string;
  face: Face;
  color: string;
  link?: string;
  goTo?: string;
  strike?: boolean;
}

export type Doc = PDFKit.PDFDocument;

/** pdfkit's own record of the text state, which its typings do not show. */
interface TextState {
  _font: unknown;
  _fontSize: number;
  _fillColor: unknown;
}

/**
 * A document that writes each sheet out when the next one starts (pdfkit's `bufferPages: false`), so its memory is
 * that of one sheet, whatever the length of the PDF: nothing drawn on a sheet may come back to it afterwards.
 */
export function createDocument(info: { title: string; subject: string }): Doc {
  const doc = new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    bufferPages: false,
    autoFirstPage: false,
    displayTitle: true,
    info: { Title: info.title, Subject: info.subject, Creator: 'Docs Platform API' },
  });
  for (const face of FACES) doc.registerFont(face, fontBytes(face));
  releaseWrittenObjects(doc);
  return doc;
}

/**
 * Forgets the shapes pdfkit's fonts remembered for each word they laid out: a cache without a bound, which over
 * thousands of pages (numbers, names, identifiers) would hold every distinct word of the PDF. The render calls it
 * every few pages, so it holds those of a few pages.
 */
export function forgetWordLayouts(doc: Doc): void {
  const families = (doc as unknown as { _fontFamilies: Record<string, { layoutCache?: object }> })._fontFamilies;
  for (const font of Object.values(families)) if (font.layoutCache) font.layoutCache = Object.create(null);
}

/** The part of pdfkit's references this module reaches into (its typings leave them out). */
interface WrittenReference {
  data: Record<string, unknown>;
}

/**
 * Once pdfkit has written an object (a sheet's dictionary, resources and content, a link), only its number is used
 * again (`n 0 R`), yet the pages tree keeps every sheet's objects to the end: their data is dropped as each is
 * written until the document ends, so a long PDF holds a few bytes per sheet rather than its dictionaries.
 */
function releaseWrittenObjects(doc: Doc): void {
  const internal = doc as unknown as { _refEnd(ref: WrittenReference): void };
  const recordOffset = internal._refEnd.bind(doc);
  // the document's own end writes its catalogue and then reads what it refers to: kept from then on
  let ending = false;
  const end = doc.end.bind(doc);
  doc.end = () => {
    ending = true;
    end();
  };
  internal._refEnd = (ref) => {
    recordOffset(ref);
    if (!ending) ref.data = {};
  };
}

export class Canvas {
  /** left edge and width of the current text column */
  left = PAGE.margin;
  width = PAGE.width - 2 * PAGE.margin;

  /** Bars open around what is being drawn (a quote in a hint: two), each from where it starts on this sheet. */
  private readonly bars: Array<{ color: string; left: number; from: number }> = [];

  /**
   * `onSheetEnd` draws what a sheet carries once its content is known (its footer), with the sheet's index, just
   * before the sheet is written out: when the next one starts, and at `finish()`.
   */
  constructor(
    readonly doc: Doc,
    private readonly onSheetEnd: (sheet: number) => void = () => {},
  ) {
    const addPage = doc.addPage.bind(doc);
    // pdfkit breaks pages through this method too (long text), so every sheet ends here
    doc.addPage = ((options?: PDFKit.PDFDocumentOptions) => {
      if (doc.page) this.endSheet();
      return addPage(options);
    }) as Doc['addPage'];
  }

  /** Ends the last sheet: call before `doc.end()`. */
  finish(): void {
    if (this.doc.page) this.endSheet();
  }

  private endSheet(): void {
    // a sheet may end in the middle of a paragraph, which goes on in its font and colour on the next one (pdfkit
    // re-applies the fill colour after its own page breaks): what is drawn here leaves them as they were
    const state = this.doc as unknown as TextState;
    const { _font, _fontSize, _fillColor } = state;
    for (const bar of this.bars) {
      this.bar(bar.color, bar.left, bar.from, this.bottom);
      bar.from = this.top;
    }
    this.onSheetEnd(this.pageIndex);
    Object.assign(state, { _font, _fontSize, _fillColor });
  }

  private bar(color: string, left: number, from: number, to: number): void {
    if (to > from)
      this.doc
        .save()
        .rect(left, from, 3, to - from)
        .fill(color)
        .restore();
  }

  get top(): number {
    return this.doc.page.margins.top;
  }

  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  get contentHeight(): number {
    return this.bottom - this.top;
  }

  /** Index of the sheet being written, counted from the first (those before it are written out already). */
  get pageIndex(): number {
    const range = this.doc.bufferedPageRange();
    return range.start + range.count - 1;
  }

  /** Starts a new page unless `height` still fits on this one. */
  ensureSpace(height: number): void {
    if (this.doc.y + Math.min(height, this.contentHeight) > this.bottom) this.doc.addPage();
  }

  space(points: number): void {
    if (this.doc.y > this.top) this.doc.y = Math.min(this.doc.y + points, this.bottom);
  }

  async indented<T>(by: number, draw: () => Promise<T>): Promise<T> {
    this.left += by;
    this.width -= by;
    try {
      return await draw();
    } finally {
      this.left -= by;
      this.width += by;
    }
  }

  use(face: Face, size: number, color: string): Doc {
    return this.doc.font(face).fontSize(size).fillColor(color);
  }

  lineHeight(face: Face, size: number): number {
    return this.doc.font(face).fontSize(size).currentLineHeight(true) + TYPE.lineGap;
  }

  /** One paragraph of runs in the current column; pdfkit breaks lines, and pages when it must. */
  paragraph(runs: Run[], size: number, layout: { align?: 'left' | 'center' | 'right' } = {}): void {
    const drawn = runs.map((r) => ({ ...r, text: drawable(r.text, r.face) })).filter((r) => r.text !== '');
    if (!drawn.length) return;
    this.ensureSpace(this.lineHeight(drawn[0].face, size));
    drawn.forEach((run, i) => {
      this.use(run.face, size, run.color);
      // continued text inherits the previous run's options: every one is set on every run
      const options: PDFKit.Mixins.TextOptions = {
        width: this.width,
        lineGap: TYPE.lineGap,
        align: layout.align ?? 'left',
        continued: i < drawn.length - 1,
        link: run.link ?? null,
        goTo: run.goTo ?? null,
        underline: !!(run.link || run.goTo),
        strike: !!run.strike,
      } as unknown as PDFKit.Mixins.TextOptions;
      if (i === 0) this.doc.text(run.text, this.left, this.doc.y, options);
      else this.doc.text(run.text, options);
    });
  }

  /** `text` as `face` draws it, cut with an ellipsis to fit `width`. */
  fitted(text: string, face: Face, size: number, width: number): string {
    const drawn = drawable(text, face).replace(/\s+/g, ' ');
    this.doc.font(face).fontSize(size);
    if (this.doc.widthOfString(drawn) <= width) return drawn;
    let low = 0;
    let high = drawn.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (this.doc.widthOfString(`${drawn.slice(0, mid)}…`) <= width) low = mid;
      else high = mid - 1;
    }
    return `${drawn.slice(0, low).trimEnd()}…`;
  }

  /** One line of plain text at (x, y), cut to fit `width`; the flow position does not move. */
  line(
    text: string,
    face: Face,
    size: number,
    color: string,
    at: { x: number; y: number; width: number; align?: 'left' | 'center' | 'right'; goTo?: string },
  ): void {
    const y = this.doc.y;
    this.use(face, size, color).text(this.fitted(text, face, size, at.width), at.x, at.y, {
      width: at.width,
      align: at.align ?? 'left',
      lineBreak: false,
      ...(at.goTo ? { goTo: at.goTo } : {}),
    });
    this.doc.y = y;
  }

  /**
   * The height `text` takes in `width`, for blocks that lay out before they draw (code lines, table
   * cells). Text that fits on one line is measured without pdfkit's line wrapper, the common and fast case.
   */
  measure(text: string, face: Face, size: number, width: number): { height: number; wraps: boolean } {
    this.doc.font(face).fontSize(size);
    const wraps = text.includes('\n') || this.doc.widthOfString(text) > width;
    return {
      height: wraps ? this.doc.heightOfString(text, { width, lineGap: 1 }) : this.doc.currentLineHeight(true) + 1,
      wraps,
    };
  }

  /** Draws text that `measure` measured at (x, y); the flow position is left to the caller. */
  box(
    text: string,
    face: Face,
    size: number,
    color: string,
    at: { x: number; y: number; width: number; align?: 'left' | 'center' | 'right' },
    wraps: boolean,
  ): void {
    this.use(face, size, color).text(text, at.x, at.y, {
      width: at.width,
      align: at.align ?? 'left',
      lineGap: 1,
      lineBreak: wraps,
    });
  }

  horizontalRule(color = COLORS.rule): void {
    const y = this.doc.y;
    this.doc
      .save()
      .moveTo(this.left, y)
      .lineTo(this.left + this.width, y)
      .lineWidth(0.75)
      .strokeColor(color)
      .stroke()
      .restore();
  }

  /**
   * Draws what `draw` writes indented by `indent`, with a bar of `color` to its left from where it
   * starts to where it ends, on every page it spans.
   */
  async barred(color: string, indent: number, draw: () => Promise<void>): Promise<void> {
    // each sheet it spans draws its part as it ends (endSheet); this one's is drawn here
    const bar = { color, left: this.left, from: this.doc.y };
    this.bars.push(bar);
    try {
      await this.indented(indent, draw);
    } finally {
      this.bars.splice(this.bars.indexOf(bar), 1);
    }
    this.bar(color, bar.left, bar.from, this.doc.y);
  }
}
