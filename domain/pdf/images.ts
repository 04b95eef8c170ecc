/**
 * Images in the PDF: PNG and JPEG files of the space, each read once and embedded once however
 * often it is shown, scaled to the column (and to part of a page's height). An image that is not a
 * file of the space, not PNG or JPEG, too large or undecodable is named in the text instead.
 */
import { PNG } from 'pngjs';
import { inflateSync } from 'zlib';
import { classifyLink } from '../content/markdown';
import { Canvas, COLORS, TYPE } from './canvas';
import type { ManuscriptImage } from './manuscript';

/** Pixels are drawn at 96 per inch at most: a screenshot is never blown up past its resolution. */
const POINTS_PER_PIXEL = 0.75;
const MAX_PAGE_SHARE = 0.6;
/** Larger images are not decoded (a small file can declare a huge canvas). */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** What pdfkit's openImage returns (its typings leave it out). */
interface Opened {
  width: number;
  height: number;
}

/**
 * pdfkit decodes some PNGs (alpha, interlaced) in a callback where a decoding error cannot be
 * caught; a full synchronous decode first turns a corrupt file into a refusal instead.
 */
function decodable(file: ManuscriptImage, bytes: Buffer): boolean {
  if (file.contentType !== 'image/png') return true;
  try {
    // pngjs's own sync inflate can report a corrupt stream as an uncaught 'error' event, so the image
    // data is first inflated by node's zlib, which throws where it can be caught
    inflateSync(imageData(bytes));
    PNG.sync.read(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The concatenated IDAT chunks of a PNG (chunks: length, type, data, CRC after the 8-byte signature). */
function imageData(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > png.length) throw new Error('truncated PNG chunk');
    if (type === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Buffer.concat(parts);
}

export class PdfImages {
  private readonly opened = new Map<string, Opened | null>();

  constructor(
    private readonly canvas: Canvas,
    private readonly files: Record<string, ManuscriptImage>,
    private readonly load: (image: ManuscriptImage) => Promise<Buffer>,
  ) {}

  private async open(fileId: string): Promise<Opened | null> {
    if (!this.opened.has(fileId)) {
      const file = this.files[fileId];
      let image: Opened | null = null;
      if (file && (file.width ?? 0) * (file.height ?? 0) <= MAX_IMAGE_PIXELS) {
        try {
          const bytes = await this.load(file);
          const doc = this.canvas.doc as unknown as { openImage(src: Buffer): Opened };
          image = decodable(file, bytes) ? doc.openImage(bytes) : null;
        } catch {
          image = null;
        }
      }
      this.opened.set(fileId, image);
    }
    return this.opened.get(fileId) ?? null;
  }

  async draw(src: string, alt: string): Promise<void> {
    const target = classifyLink(src);
    const image = target?.kind === 'file' ? await this.open(target.target) : null;
    if (!image || !this.place(image)) {
      const name = target?.kind === 'file' ? (this.files[target.target]?.name ?? src) : src;
      this.canvas.paragraph([{ text: `[image: ${alt || name}]`, face: 'italic', color: COLORS.muted }], TYPE.small);
      this.canvas.space(4);
      return;
    }
    if (alt)
      this.canvas.paragraph([{ text: alt, face: 'italic', color: COLORS.muted }], TYPE.small, { align: 'center' });
    this.canvas.space(6);
  }

  /** Draws the image centred in the column, on a new page if it does not fit; false if pdfkit refuses it. */
  private place(image: Opened): boolean {
    const { canvas } = this;
    if (!(image.width > 0 && image.height > 0)) return false;
    let width = Math.min(canvas.width, image.width * POINTS_PER_PIXEL);
    let height = (width * image.height) / image.width;
    const maxHeight = canvas.contentHeight * MAX_PAGE_SHARE;
    if (height > maxHeight) {
      width = (width * maxHeight) / height;
      height = maxHeight;
    }
    canvas.ensureSpace(height + 4);
    const y = canvas.doc.y;
    try {
      canvas.doc.image(image as unknown as Buffer, canvas.left + (canvas.width - width) / 2, y, { width, height });
    } catch {
      return false;
    }
    canvas.doc.y = y + height + 4;
    return true;
  }
}
