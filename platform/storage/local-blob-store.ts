/**
 * The embedded default: blobs in a local folder; download URLs point at the API itself and carry
 * an HMAC signature and an expiry, checked by the blob download route.
 */
import { createHmac, timingSafeEqual } from 'crypto';
import { createReadStream, createWriteStream, promises as fs, constants as fsConstants } from 'fs';
import * as path from 'path';
import type { Readable } from 'stream';
import { pipeline } from 'stream/promises';
import { type BlobStore, BlobTooLarge, type DownloadOptions } from './blob-store';

export interface SignedBlobRequest {
  key: string;
  filename: string;
  contentType: string;
  expires: number;
  signature: string;
}

/** Keys the store writes (`files/<spaceId>/<sha256>`): no other characters, no `..` segment leaving the folder. */
function isBlobKey(key: string): boolean {
  return /^[A-Za-z0-9._/-]+$/.test(key) && !key.includes('..');
}

export class LocalBlobStore implements BlobStore {
  constructor(
    private readonly dir: string,
    private readonly publicBaseUrl: string,
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {}

  private file(key: string): string {
    if (!isBlobKey(key)) throw new Error(`invalid blob key ${key}`);
    return path.join(this.dir, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(tmp, body);
    await fs.rename(tmp, file);
  }

  async putFile(key: string, source: string): Promise<number> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    // a copy, not a rename: the source may be on another file system (the OS's temporary folder)
    await pipeline(createReadStream(source), createWriteStream(tmp));
    await fs.rename(tmp, file);
    return (await fs.stat(file)).size;
  }

  async download(key: string, target: string): Promise<void> {
    await pipeline(createReadStream(this.file(key)), createWriteStream(target));
  }

  async read(key: string, options: { maxBytes?: number } = {}): Promise<Buffer> {
    const handle = await fs.open(this.file(key), 'r');
    try {
      // the size of the file that is read: a concurrent put renames a new file in, it never rewrites this one
      const { size } = await handle.stat();
      if (options.maxBytes !== undefined && size > options.maxBytes) throw new BlobTooLarge(size, options.maxBytes);
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /** The blob's size and a stream of its bytes, or null when there is no such blob (nor can be: a key the store never writes). */
  async open(key: string): Promise<{ size: number; stream: Readable } | null> {
    if (!isBlobKey(key)) return null;
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.file(key), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    // size and bytes from the same open file: a concurrent put renames a new file in, it never rewrites this one
    const stat = await handle.stat().catch(async (err) => {
      await handle.close();
      throw err;
    });
    if (!stat.isFile()) {
      await handle.close();
      return null;
    }
    return { size: stat.size, stream: handle.createReadStream() };
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  async reachable(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    await fs.access(this.dir, fsConstants.W_OK);
  }

  private sign(key: string, filename: string, contentType: string, expires: number): string {
    return createHmac('sha256', this.secret)
      .update([key, filename, contentType, String(expires)].join('\n'))
      .digest('base64url');
  }

  async downloadUrl(key: string, options: DownloadOptions): Promise<string> {
    const expires = Math.floor(Date.now() / 1000) + (options.ttlSeconds ?? this.ttlSeconds);
    const query = new URLSearchParams({
      filename: options.filename,
      contentType: options.contentType,
      expires: String(expires),
      signature: this.sign(key, options.filename, options.contentType, expires),
    });
    return `${this.publicBaseUrl}/v1/blobs/${key}?${query}`;
  }

  /** True when the request carries this store's valid, unexpired signature. */
  verify(request: SignedBlobRequest): boolean {
    if (request.expires < Math.floor(Date.now() / 1000)) return false;
    const expected = Buffer.from(this.sign(request.key, request.filename, request.contentType, request.expires));
    const given = Buffer.from(request.signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
