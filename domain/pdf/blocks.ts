/**
 * Draws one page's document tree (domain/content/document.ts, built from its markdown by the
 * project's markdown-it setup): headings with their outline bookmarks, paragraphs with bold,
 * italic, inline code and links, nested lists, code blocks, tables, blockquotes, hints, dividers
 * and images. Anything a newer document holds that is not drawn here still shows its text.
 */
import type { DocumentElement, DocumentLeaf, DocumentNode } from '../content/document';
import { classifyLink } from '../content/markdown';
import { Canvas, COLORS, Run, TYPE } from './canvas';
import { drawable, Face } from './fonts';
import type { PdfImages } from './images';

/** Where links inside the PDF go: a page's named destination, if that page is in the PDF. */
export interface LinkTargets {
  byId: Map<string, string>;
  byPath: Map<string, string>;
}

/** The outline item that headings nest under, and the open heading items by level. */
export interface OutlineScope {
  page: PDFKit.PDFOutline;
  headings: Array<{ level: number; item: PDFKit.PDFOutline }>;
}

interface InlineStyle {
  color: string;
  italic: boolean;
  /** space after a paragraph: less between the items of a list */
  gap: number;
}

const BODY: InlineStyle = { color: COLORS.text, italic: false, gap: TYPE.body * 0.6 };
const LIST_GAP = 3;

const BULLETS = ['•', '◦', '▪'];
const LIST_INDENT = 18;
const QUOTE_INDENT = 14;
const CELL_PADDING = 4;
const CODE_PADDING = 6;
const HINT_LABELS: Record<string, string> = {
  info: 'ℹ Info',
  success: '✔ Success',
  warning: '⚠ Warning',
  danger: '✖ Danger',
};

function faceOf(marks: DocumentLeaf['marks'], style: InlineStyle): Face {
  const has = (type: string) => marks.some((m) => m.type === type);
  if (has('code')) return has('bold') ? 'monoBold' : 'mono';
  const bold = has('bold');
  const italic = has('italic') || style.italic;
  return bold && italic ? 'boldItalic' : bold ? 'bold' : italic ? 'italic' : 'regular';
}

/** The plain text of nodes (table cells, image captions, outline titles). */
export function plainText(nodes: DocumentNode[]): string {
  return nodes
    .map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : plainText(n.nodes)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

export class BlockWriter {
  constructor(
    private readonly canvas: Canvas,
    private readonly images: PdfImages,
    private readonly links: LinkTargets,
    private readonly outline: OutlineScope,
  ) {}

  private get doc() {
    return this.canvas.doc;
  }

  async blocks(nodes: DocumentNode[], style: InlineStyle = BODY): Promise<void> {
    // inline nodes at block level (a list item's text) make one paragraph together
    let inline: DocumentNode[] = [];
    const flush = async () => {
      if (inline.length) await this.paragraph(inline, style);
      inline = [];
    };
    for (const node of nodes) {
      if (node.object === 'block') {
        await flush();
        await this.block(node, style);
      } else inline.push(node);
    }
    await flush();
  }

  private async block(node: DocumentElement, style: InlineStyle): Promise<void> {
    const heading = /^heading-([1-6])$/.exec(node.type);
    if (heading) return this.heading(Number(heading[1]), node.nodes);
    switch (node.type) {
      case 'paragraph':
        return this.paragraph(node.nodes, style);
      case 'list-unordered':
      case 'list-ordered':
        return this.list(node, style, 0);
      case 'code':
        return this.code(node);
      case 'table':
        return this.table(node);
      case 'blockquote':
        await this.canvas.barred(COLORS.rule, QUOTE_INDENT, () =>
          this.blocks(node.nodes, { ...style, color: COLORS.quote, italic: true }),
        );
        return this.canvas.space(6);
      case 'hint':
        return this.hint(node);
      case 'divider':
        this.canvas.space(4);
        this.canvas.horizontalRule();
        return this.canvas.space(10);
      default:
        return this.blocks(node.nodes, style);
    }
  }

  private async heading(level: number, nodes: DocumentNode[]): Promise<void> {
    const size = TYPE.headings[level - 1];
    this.canvas.space(size * 0.8);
    // a heading is never the last line of a page
    this.canvas.ensureSpace(this.canvas.lineHeight('bold', size) + this.canvas.lineHeight('regular', TYPE.body) * 2);
    const title = plainText(nodes);
    const open = this.outline.headings;
    while (open.length && open[open.length - 1].level >= level) open.pop();
    const parent = open.length ? open[open.length - 1].item : this.outline.page;
    if (title) open.push({ level, item: parent.addItem(title) });
    this.canvas.paragraph(this.runs(nodes, BODY, 'bold'), size);
    this.canvas.space(size * 0.35);
  }

  /** Text runs of inline nodes; images end a stretch of text (see `paragraph`). */
  private runs(nodes: DocumentNode[], style: InlineStyle, base?: Face, link?: Pick<Run, 'link' | 'goTo'>): Run[] {
    const out: Run[] = [];
    for (const node of nodes) {
      if (node.object === 'text') {
        for (const leaf of node.leaves) {
          const face = base && !leaf.marks.some((m) => m.type === 'code') ? base : faceOf(leaf.marks, style);
          const color = link ? COLORS.link : leaf.marks.some((m) => m.type === 'code') ? COLORS.code : style.color;
          // soft line breaks of the markdown source are spaces in a paragraph
          out.push({
            text: leaf.text.replace(/\n/g, ' '),
            face,
            color,
            strike: leaf.marks.some((m) => m.type === 'strikethrough'),
            ...link,
          });
        }
      } else if (node.type === 'link') {
        out.push(...this.runs(node.nodes, style, base, this.linkTarget(String(node.data?.href ?? ''))));
      } else if (node.type !== 'image') {
        out.push(...this.runs(node.nodes, style, base, link));
      }
    }
    return out;
  }

  /** A page of this PDF becomes an internal link, a web or mail address a link; anything else stays text. */
  private linkTarget(href: string): Pick<Run, 'link' | 'goTo'> | undefined {
    const target = classifyLink(href);
    if (target?.kind === 'page') {
      const goTo = target.byPath ? this.links.byPath.get(target.target) : this.links.byId.get(target.target);
      return goTo ? { goTo } : undefined;
    }
    if (target?.kind === 'url' || /^mailto:/i.test(href)) return { link: href };
    return undefined;
  }

  /** Text and images in their order: each image between the text before and after it. */
  private async paragraph(nodes: DocumentNode[], style: InlineStyle): Promise<void> {
    let text: DocumentNode[] = [];
    const flush = () => {
      this.canvas.paragraph(this.runs(text, style), TYPE.body);
      text = [];
    };
    for (const node of nodes) {
      if (node.object === 'inline' && node.type === 'image') {
        flush();
        await this.images.draw(String(node.data?.src ?? ''), String(node.data?.alt ?? ''));
      } else text.push(node);
    }
    flush();
    this.canvas.space(style.gap);
  }

  private async list(list: DocumentElement, style: InlineStyle, depth: number): Promise<void> {
    const ordered = list.type === 'list-ordered';
    const itemStyle = { ...style, gap: LIST_GAP };
    let number = Number(list.data?.start ?? 1);
    for (const item of list.nodes) {
      if (item.object !== 'block') continue;
      const marker = ordered ? `${number++}.` : BULLETS[depth % BULLETS.length];
      this.canvas.ensureSpace(this.canvas.lineHeight('regular', TYPE.body) * 1.5);
      const y = this.doc.y;
      this.canvas.line(marker, 'regular', TYPE.body, style.color, {
        x: this.canvas.left,
        y,
        width: LIST_INDENT - 5,
        align: 'right',
      });
      await this.canvas.indented(LIST_INDENT, async () => {
        for (const child of item.nodes) {
          if (child.object === 'block' && (child.type === 'list-unordered' || child.type === 'list-ordered'))
            await this.list(child, itemStyle, depth + 1);
          else await this.blocks([child], itemStyle);
        }
      });
      // an empty item still takes its line
      if (this.doc.y === y) this.doc.y += this.canvas.lineHeight('regular', TYPE.body);
    }
    if (depth === 0) this.canvas.space(BODY.gap);
  }

  /** Monospace lines on a tinted band, which breaks between pages where the lines do. */
  private async code(block: DocumentElement): Promise<void> {
    const { canvas, doc } = this;
    const width = canvas.width - 2 * CODE_PADDING;
    const lines = block.nodes.map((line) => (line.object === 'block' ? plainLine(line.nodes) : ''));
    canvas.space(2);
    canvas.ensureSpace(canvas.lineHeight('mono', TYPE.code) + 2 * CODE_PADDING);
    const band = (y: number, height: number) =>
      doc.save().rect(canvas.left, y, canvas.width, height).fill(COLORS.codeBackground).restore();
    band(doc.y, CODE_PADDING);
    doc.y += CODE_PADDING;
    for (const line of lines) {
      const text = drawable(line, 'mono') || ' ';
      const { height, wraps } = canvas.measure(text, 'mono', TYPE.code, width);
      if (doc.y + height > canvas.bottom) {
        doc.addPage();
        band(doc.y, CODE_PADDING / 2);
        doc.y += CODE_PADDING / 2;
      }
      const y = doc.y;
      band(y, height);
      canvas.box(text, 'mono', TYPE.code, COLORS.text, { x: canvas.left + CODE_PADDING, y, width }, wraps);
      doc.y = y + height;
    }
    band(doc.y, CODE_PADDING);
    doc.y += CODE_PADDING;
    canvas.space(TYPE.body * 0.8);
  }

  private async table(table: DocumentElement): Promise<void> {
    const { canvas, doc } = this;
    const rows = table.nodes
      .filter((r): r is DocumentElement => r.object === 'block')
      .map((row) => ({
        header: row.nodes.some((c) => c.object === 'block' && c.data?.header === true),
        cells: row.nodes
          .filter((c): c is DocumentElement => c.object === 'block')
          .map((c) => ({
            text: plainText(c.nodes),
            align: (c.data?.align as 'left' | 'center' | 'right' | undefined) ?? 'left',
          })),
      }));
    const columns = Math.max(1, ...rows.map((r) => r.cells.length));
    const widths = columnWidths(
      rows.map((r) => r.cells.map((c) => c.text)),
      columns,
      canvas.width,
      (text, face) => {
        doc.font(face).fontSize(TYPE.body - 1);
        return doc.widthOfString(text);
      },
    );
    const header = rows[0]?.header ? rows[0] : null;
    const drawRow = (row: (typeof rows)[number]) => {
      const face: Face = row.header ? 'bold' : 'regular';
      const cells = Array.from({ length: columns }, (_, i) => {
        const text = drawable(row.cells[i]?.text ?? '', face) || ' ';
        return { text, ...canvas.measure(text, face, TYPE.body - 1, widths[i] - 2 * CELL_PADDING) };
      });
      const height = Math.max(...cells.map((c) => c.height)) + 2 * CELL_PADDING;
      if (doc.y + height > canvas.bottom) {
        doc.addPage();
        if (header && row !== header) drawRow(header);
      }
      const y = doc.y;
      let x = canvas.left;
      cells.forEach((cell, i) => {
        if (row.header) doc.save().rect(x, y, widths[i], height).fill(COLORS.tableHeader).restore();
        doc.save().rect(x, y, widths[i], height).lineWidth(0.5).strokeColor(COLORS.rule).stroke().restore();
        const at = {
          x: x + CELL_PADDING,
          y: y + CELL_PADDING,
          width: widths[i] - 2 * CELL_PADDING,
          align: row.cells[i]?.align ?? 'left',
        };
        canvas.box(cell.text, face, TYPE.body - 1, COLORS.text, at, cell.wraps);
        x += widths[i];
      });
      doc.y = y + height;
    };
    canvas.space(2);
    for (const row of rows) drawRow(row);
    canvas.space(TYPE.body);
  }

  private async hint(hint: DocumentElement): Promise<void> {
    const style = String(hint.data?.style ?? 'info');
    const color = COLORS.hints[style] ?? COLORS.hints.info;
    this.canvas.space(2);
    await this.canvas.barred(color, QUOTE_INDENT, async () => {
      this.canvas.paragraph([{ text: HINT_LABELS[style] ?? HINT_LABELS.info, face: 'bold', color }], TYPE.body - 1);
      this.canvas.space(2);
      await this.blocks(hint.nodes);
    });
    this.canvas.space(6);
  }
}

/** A code line's text: tabs become spaces where the line is drawn. */
function plainLine(nodes: DocumentNode[]): string {
  return nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : plainLine(n.nodes))).join('');
}

/**
 * Column widths that fill `total`: each column gets a share that grows with its longest cell
 * (up to a cap, so one long cell cannot starve the others), and never less than a minimum.
 */
export function columnWidths(
  rows: string[][],
  columns: number,
  total: number,
  measure: (text: string, face: Face) => number,
): number[] {
  const minimum = Math.min(36, total / columns);
  const wants = Array.from({ length: columns }, (_, i) =>
    Math.min(220, Math.max(minimum, ...rows.map((r) => measure(r[i] ?? '', 'regular') + 2 * CELL_PADDING))),
  );
  const sum = wants.reduce((a, b) => a + b, 0);
  return wants.map((w) => (w / sum) * total);
}
