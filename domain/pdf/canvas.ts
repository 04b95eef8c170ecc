/**
 * The page geometry, type and colours of the PDF, and a thin layer over pdfkit that the renderers
 * share: a text column that blocks indent, rich text runs in one paragraph, page breaks before
 * what would not fit, and bars drawn beside content that may span pages.
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

export function createDocument(info: { title: string; subject: string }): Doc {
  const doc = new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    bufferPages: true,
    autoFirstPage: false,
    displayTitle: true,
    info: { Title: info.title, Subject: info.subject, Creator: 'Docs Platform API' },
  });
  for (const face of FACES) doc.registerFont(face, fontBytes(face));
  return doc;
}

export class Canvas {
  /** left edge and width of the current text column */
  left = PAGE.margin;
  width = PAGE.width - 2 * PAGE.margin;

  constructor(readonly doc: Doc) {}

  get top(): number {
    return this.doc.page.margins.top;
  }

  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  get contentHeight(): number {
    return this.bottom - this.top;
  }

  /** Index of the page being written (the last one: earlier pages are only revisited for bars). */
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
    const start = { page: this.pageIndex, y: this.doc.y };
    await this.indented(indent, draw);
    const end = { page: this.pageIndex, y: this.doc.y };
    for (let page = start.page; page <= end.page; page++) {
      this.doc.switchToPage(page);
      const from = page === start.page ? start.y : this.top;
      const to = page === end.page ? end.y : this.bottom;
      if (to > from)
        this.doc
          .save()
          .rect(this.left, from, 3, to - from)
          .fill(color)
          .restore();
    }
    this.doc.y = end.y;
  }
}
