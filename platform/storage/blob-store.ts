/** One storage interface for uploaded files and other blobs, with a local-folder and an S3 back end (BLOB_STORE chooses). */
export interface DownloadOptions {
  filename: string;
  contentType: string;
  ttlSeconds?: number;
}

/** A blob larger than the reader accepts: its bytes were not read. */
export class BlobTooLarge extends Error {
  constructor(
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`the blob is ${size} bytes, more than the ${maxBytes} accepted`);
    this.name = 'BlobTooLarge';
  }
}

export interface BlobStore {
  /** Stores bytes under `key` (idempotent: the same key holds the same bytes). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /**
   * Stores the bytes of the local file `file` under `key`, streamed, so a blob larger than memory passes through a
   * buffer of a few MiB (on S3 a multipart upload). Resolves with the bytes stored.
   */
  putFile(key: string, file: string, contentType: string): Promise<number>;
  /** Writes the bytes stored under `key` into the local file `file`, streamed (rejects when there is none). */
  download(key: string, file: string): Promise<void>;
  /** The bytes stored under `key` (rejects when there is none, and with BlobTooLarge beyond `maxBytes`, unread). */
  read(key: string, options?: { maxBytes?: number }): Promise<Buffer>;
  /** A time-limited URL from which anyone holding it can download the blob (for `ttlSeconds`, default BLOB_URL_TTL_SECONDS). */
  downloadUrl(key: string, options: DownloadOptions): Promise<string>;
  delete(key: string): Promise<void>;
  /** Resolves when the store answers (GET /readyz): the folder is writable, or the S3 server answers for the bucket. */
  reachable(signal: AbortSignal): Promise<void>;
}
