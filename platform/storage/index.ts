/** Builds the configured blob store (BLOB_STORE). */
import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';
import { S3BlobStore } from './s3-blob-store';

export function createBlobStore(config: Config): BlobStore {
  const { blobs } = config;
  if (blobs.backend === 's3') return new S3BlobStore(blobs.s3, blobs.urlTtlSeconds);
  return new LocalBlobStore(blobs.dir, config.publicBaseUrl, blobs.urlSecret, blobs.urlTtlSeconds);
}
