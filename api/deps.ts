import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { Config } from '../domain/config';
import type { TemporalGateway } from '../domain/processes/temporal';
import type { BlobStore } from '../domain/storage/blob-store';

/** What route handlers may use; built once in app.ts. */
export interface Deps {
  ds: DataSource;
  config: Config;
  temporal: TemporalGateway;
  logger: Logger;
  blobs: BlobStore;
}
