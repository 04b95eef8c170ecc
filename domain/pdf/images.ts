/**
 * Images in the PDF: PNG and JPEG files of the space, each read once and embedded once however
 * often it is shown, scaled to the column (and to part of a page's height). An image that is not a
 * file of the space, not PNG or JPEG, too large or undecodable is named in the text instead.
 */
import { PNG } from 'pngjs';
import { inflateSync } from 'zlib';
import { classifyLink } from '../content/markdown';
import { Canvas, COLORS, TYPE } from './canvas';
import type { ManuscriptImage } from './manuscript-file';

/** Pixels are drawn at 96 per inch at most: a screenshot is never blown up past its resolution. */
const POINTS_PER_PIXEL = 0.75;
const MAX_PAGE_SHARE = 0.6;
/** Larger images, by their own header, are not decoded (a small file can declare a huge canvas). */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** What pdfkit's openImage returns (its typings leave it out). */
interface Opened {
  width: number;
  height: number;
}

/** Whether pdfkit may open the bytes: their header's size, or why not. */
export type ImageCheck = { ok: true; width: number; height: number } | { ok: false; reason: string };

class Refused extends Error {}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Samples per pixel of each PNG colour type (grey, RGB, palette, grey and alpha, RGBA). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const PNG_BIT_DEPTHS = [1, 2, 4, 8, 16];
/** Adam7's seven passes: first column and row, then the step between columns and between rows. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];
/** The start-of-frame markers pdfkit reads a JPEG's size from (it embeds JPEG bytes undecoded). */
const JPEG_FRAMES = new Set([
  0xffc0, 0xffc1, 0xffc2, 0xffc3, 0xffc5, 0xffc6, 0xffc7, 0xffc8, 0xffc9, 0xffca, 0xffcb, 0xffcc, 0xffcd, 0xffce,
  0xffcf,
]);

function withinBudget(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new Refused('the header declares no pixels');
  if (width * height > MAX_IMAGE_PIXELS)
    throw new Refused(`the header declares ${width}×${height} pixels, more than ${MAX_IMAGE_PIXELS}`);
}

/** The bytes of the rows the scanlines of a `width`×`height` image take, each with its filter byte. */
function scanlineBytes(width: number, height: number, bitsPerPixel: number): number {
  return width > 0 && height > 0 ? height * (1 + Math.ceil((width * bitsPerPixel) / 8)) : 0;
}

/**
 * A PNG: its one IHDR (first, as pngjs and pdfkit's reader both take it) within the budget, and its image
 * data inflating to no more than that header implies, stopped there by zlib instead of inflating a bomb.
 */
function checkPng(png: Buffer): { width: number; height: number } {
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR')
    throw new Refused('no PNG header');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, colourType, , , interlace] = png.subarray(24, 29);
  const channels = PNG_CHANNELS[colourType];
  if (!channels || !PNG_BIT_DEPTHS.includes(depth)) throw new Refused('an unknown PNG pixel format');
  withinBudget(width, height);
  const parts: Buffer[] = [];
  // chunks: length, type, data, CRC after the 8-byte signature
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > png.length) throw new Refused('a truncated PNG chunk');
    if (type === 'IHDR' && at !== 8) throw new Refused('a second PNG header');
    if (type === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  const bitsPerPixel = channels * depth;
  const expected =
    interlace === 0
      ? scanlineBytes(width, height, bitsPerPixel)
      : ADAM7.reduce(
          (sum, [x, y, dx, dy]) =>
            sum + scanlineBytes(Math.ceil((width - x) / dx), Math.ceil((height - y) / dy), bitsPerPixel),
          0,
        );
  try {
    // pngjs's own sync inflate can report a corrupt stream as an uncaught 'error' event, so the image data is
    // first inflated by node's zlib, which throws where it can be caught
    inflateSync(Buffer.concat(parts), { maxOutputLength: expected });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new Refused(`the image data inflates past the ${expected} bytes a ${width}×${height} header implies`);
    throw new Refused('the image data does not inflate');
  }
  try {
    // pdfkit decodes some PNGs (alpha, interlaced) in a callback where a decoding error cannot be caught
    PNG.sync.read(png);
  } catch {
    throw new Refused('the PNG does not decode');
  }
  return { width, height };
}

/** A JPEG's size, read where pdfkit reads it: the first start-of-frame marker. */
function checkJpeg(jpeg: Buffer): { width: number; height: number } {
  for (let at = 2; at + 4 <= jpeg.length; ) {
    const marker = jpeg.readUInt16BE(at);
    if (JPEG_FRAMES.has(marker)) {
      if (at + 9 > jpeg.length) break;
      const size = { width: jpeg.readUInt16BE(at + 7), height: jpeg.readUInt16BE(at + 5) };
      withinBudget(size.width, size.height);
      return size;
    }
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  throw new Refused('no JPEG frame header');
}

/**
 * Whether pdfkit may open `bytes`, told as pdfkit tells a format (by its first bytes, whatever the file's
 * declared type), with the size from the image's own header, never from the upload's record.
 */
export function checkImage(bytes: Buffer): ImageCheck {
  try {
    if (bytes[0] === 0x89 && bytes.toString('latin1', 1, 4) === 'PNG') return { ok: true, ...checkPng(bytes) };
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return { ok: true, ...checkJpeg(bytes) };
    return { ok: false, reason: 'neither PNG nor JPEG' };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.message };
    // a header cut short
    if (err instanceof RangeError) return { ok: false, reason: 'a truncated image' };
    throw err;
  }
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
      if (file) {
        try {
          const bytes = await this.load(file);
          const check = checkImage(bytes);
          if (check.ok) {
            const opened = (this.canvas.doc as unknown as { openImage(src: Buffer): Opened }).openImage(bytes);
            // pdfkit reads the header again: the budget holds only for the size it read
            if (opened.width === check.width && opened.height === check.height) image = opened;
          }
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
