/**
 * A transaction source whose after-commit starts are lost, as a crash between a commit and its start loses
 * them (platform/db/after-commit.ts): a test that drives a job step by step, or checks what the reconciler
 * or an operator does about a start that never happened, starts (or leaves) the run itself.
 */
import pino from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import { loadPublicBaseUrl } from '../../platform/config';
import { AfterCommitList, type WorkTx } from '../../platform/db/after-commit';
import type { WorkSource } from '../../platform/db/transactions';
import type { TemporalGateway } from '../../platform/temporal/gateway';

const unreachable = {
  getClient: () => Promise.reject(new Error('held back: this start is left to the test')),
} as unknown as TemporalGateway;

export function heldBack(ds: DataSource): WorkSource {
  return { ds, temporal: unreachable, logger: pino({ level: 'silent' }), config: loadPublicBaseUrl() };
}

/** The same for a transaction the test opened itself (one it rolls back, say). */
export function heldBackTx(db: EntityManager): WorkTx {
  return new AfterCommitList(heldBack(db.connection)).attach(db);
}
