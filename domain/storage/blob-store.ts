/** One storage interface for uploaded files and other blobs, with a local-folder and an S3 back end (BLOB_STORE chooses). */
export interface DownloadOptions {
  filename: string;
  contentType: string;
  ttlSeconds?: number;
}

export interface BlobStore {
  /** Stores bytes under `key` (idempotent: the same key holds the same bytes). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The bytes stored under `key` (rejects when there is none). */
  read(key: string): Promise<Buffer>;
  /** A time-limited URL from which anyone holding it can download the blob (for `ttlSeconds`, default BLOB_URL_TTL_SECONDS). */
  downloadUrl(key: string, options: DownloadOptions): Promise<string>;
  delete(key: string): Promise<void>;
}
