/** Builds the configured blob store. */
import type { Config } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';

export function createBlobStore(config: Config): BlobStore {
  return new LocalBlobStore(config.blobs.dir, config.publicBaseUrl, config.blobs.urlSecret, config.blobs.urlTtlSeconds);
}
