import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { Config } from '../platform/config';
import type { BlobStore } from '../platform/storage/blob-store';
import type { TemporalGateway } from '../platform/temporal/gateway';

/** What route handlers may use; built once in app.ts. */
export interface Deps {
  ds: DataSource;
  config: Config;
  temporal: TemporalGateway;
  logger: Logger;
  blobs: BlobStore;
}
