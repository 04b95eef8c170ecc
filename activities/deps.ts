/**
 * The one factory of the activities' dependencies: every activity factory receives this object,
 * so tests and the worker build them alike and swap what they need (a clock, a fetch policy).
 */
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { Config } from '../platform/config';
import { createLogger } from '../platform/logger';
import { GuardedFetch } from '../platform/net/guarded-fetch';
import { createBlobStore } from '../platform/storage';
import type { BlobStore } from '../platform/storage/blob-store';
import { TemporalGateway } from '../platform/temporal/gateway';
import { JobMetrics } from './job-metrics';

export type Clock = () => Date;

export interface ActivityDeps {
  ds: DataSource;
  config: Config;
  blobs: BlobStore;
  /** The guarded outbound client (platform/net/): every fetch of a user-supplied URL goes through it. */
  fetch: GuardedFetch;
  logger: Logger;
  clock: Clock;
  /** Client side of Temporal, for activities that start jobs (reconciler, coalesced reruns). */
  temporal: TemporalGateway;
  /** Jobs started, completed and failed (the worker serves their registry at /metrics). */
  metrics: JobMetrics;
}

export function createActivityDeps(
  base: { ds: DataSource; config: Config },
  overrides: Partial<ActivityDeps> = {},
): ActivityDeps {
  const { config } = base;
  const logger = overrides.logger ?? createLogger(config.logLevel, 'activities');
  return {
    fetch: new GuardedFetch(config.fetch, { logger }),
    blobs: createBlobStore(config),
    logger,
    clock: () => new Date(),
    temporal: new TemporalGateway(config),
    metrics: new JobMetrics(),
    ...base,
    ...overrides,
  };
}
