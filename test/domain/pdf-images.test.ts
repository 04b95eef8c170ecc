/** What the PDF renderer lets pdfkit open: sizes from the image's own header, PNG data inflated only as far as it implies. */
import { once } from 'events';
import { createDeflate, deflateSync } from 'zlib';
import { checkImage, MAX_IMAGE_PIXELS } from '../../domain/pdf/images';
import { png, pngFile } from '../support/content-forms';

/** A PNG header: `width`×`height`, 8 bits per sample, the colour type and interlace method given. */
function header(width: number, height: number, colourType = 0, interlace = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colourType;
  ihdr[12] = interlace;
  return ihdr;
}

/** `total` zero bytes deflated a megabyte at a time: the test never holds the inflated size. */
async function deflatedZeros(total: number): Promise<Buffer> {
  const megabyte = Buffer.alloc(1024 * 1024);
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  for (let written = 0; written < total; written += megabyte.length)
    if (!deflate.write(megabyte)) await once(deflate, 'drain');
  deflate.end();
  await once(deflate, 'end');
  return Buffer.concat(parts);
}

/** A baseline JPEG's first bytes up to its frame header, declaring `width`×`height`. */
function jpegHeader(width: number, height: number): Buffer {
  const frame = Buffer.from([0xff, 0xc0, 0, 11, 8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0]), frame, Buffer.from([0xff, 0xd9])]);
}

describe('PNG decompression bombs and the pixel budget in PDF export', () => {
  it('a PNG whose 1×1 header hides 64 MB of image data is refused, inflated no further than 4 bytes', async () => {
    const bomb = pngFile(header(1, 1, 2), await deflatedZeros(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(256 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    expect(checkImage(bomb)).toEqual({
      ok: false,
      reason: 'the image data inflates past the 4 bytes a 1×1 header implies',
    });
    // inflating it all would hold 64 MB
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024);
  });

  it('the size implied counts every Adam7 pass of an interlaced PNG, and not a byte more', () => {
    // 5×3 grey: passes of 1×1, 1×1, none, 1×1, 3×1, 2×2 and 5×1 pixels, each row after its filter byte
    const implied = 2 + 2 + 0 + 2 + 4 + 2 * 3 + 6;
    const exact = pngFile(header(5, 3, 0, 1), deflateSync(Buffer.alloc(implied)));
    expect(checkImage(exact)).toEqual({ ok: true, width: 5, height: 3 });
    const more = pngFile(header(5, 3, 0, 1), deflateSync(Buffer.alloc(implied + 1)));
    expect(checkImage(more)).toEqual({
      ok: false,
      reason: `the image data inflates past the ${implied} bytes a 5×3 header implies`,
    });
    expect(checkImage(png(5, 3))).toEqual({ ok: true, width: 5, height: 3 });
  });

  it('the pixel budget reads the PNG or JPEG header itself, whatever the upload recorded', () => {
    const tall = MAX_IMAGE_PIXELS / 1000 + 1;
    expect(checkImage(pngFile(header(1000, tall), deflateSync(Buffer.alloc(0))))).toEqual({
      ok: false,
      reason: `the header declares 1000×${tall} pixels, more than ${MAX_IMAGE_PIXELS}`,
    });
    expect(checkImage(jpegHeader(65535, 65535))).toEqual({
      ok: false,
      reason: `the header declares 65535×65535 pixels, more than ${MAX_IMAGE_PIXELS}`,
    });
    expect(checkImage(jpegHeader(8, 6))).toEqual({ ok: true, width: 8, height: 6 });
    expect(checkImage(pngFile(header(0, 1), deflateSync(Buffer.alloc(0))))).toMatchObject({ ok: false });
    expect(checkImage(Buffer.from('GIF89a'))).toEqual({ ok: false, reason: 'neither PNG nor JPEG' });
    expect(checkImage(jpegHeader(8, 6).subarray(0, 12))).toEqual({ ok: false, reason: 'no JPEG frame header' });
  });
});
