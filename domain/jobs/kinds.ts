/**
 * The registry of job kinds and what the machinery does with them (docs/jobs.md):
 * one reconciler for every kind, one cleanup of what expired, the wait for a run's result (the start and
 * the cancel are in job-start.ts). A kind is declared beside its domain (defineJobKind in job-kind.ts) and
 * listed in JOB_KINDS.
 */
import type { Logger } from 'pino';
import { type FindOptionsWhere, IsNull, LessThanOrEqual, Not } from 'typeorm';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { TemporalGateway } from '../../platform/temporal/gateway';
import { expireIdempotencyKeys } from '../idempotency/keys';
import { contentImportJob } from '../imports/import-job';
import { integrationDispatchJob } from '../integrations/dispatch-job';
import { mailDeliveryJob } from '../invites/mail-job';
import { openapiProcessJob } from '../openapi-specs/process-job';
import { pdfExportJob } from '../pdf/export-job';
import { spacePurgeJob } from '../spaces/purge-job';
import { translationRunJob } from '../translations/run-job';
import { type JobWorkflowName, jobWorkflowId } from './contracts';
import { isJobActive, JobKind, JobRow, jobState } from './job-kind';
import { startJob } from './job-start';

/** A kind over any row type, as the registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: each kind's row type differs; unknown would not accept their callbacks
type AnyJobKind = JobKind<any, JobWorkflowName>;

/**
 * Every job kind of the service, by the workflow that runs it: the contracts' JOB_KIND_NAMES are the one list, and a
 * kind missing here is a compile error (test/domain/job-registries.test.ts checks the other lists against it).
 */
// biome-ignore lint/suspicious/noExplicitAny: each kind's row type differs
const KINDS_BY_WORKFLOW: { [N in JobWorkflowName]: JobKind<any, N> } = {
  spacePurge: spacePurgeJob,
  openapiProcess: openapiProcessJob,
  pdfExport: pdfExportJob,
  contentImport: contentImportJob,
  translationRun: translationRunJob,
  integrationDispatch: integrationDispatchJob,
  mailDelivery: mailDeliveryJob,
};

export const JOB_KINDS: readonly AnyJobKind[] = Object.values(KINDS_BY_WORKFLOW);

export function jobKindNamed(name: string): AnyJobKind | undefined {
  return JOB_KINDS.find((k) => k.name === name);
}

/**
 * For a request that answers with a job's result: waits until the run of the row's current
 * generation closes, or `waitMs` passed. It never throws: a run that failed, timed out or has not
 * started yet is for the caller to read from the row, which it reloads afterwards.
 */
export async function awaitJobRun<R extends JobRow>(
  temporal: TemporalGateway,
  kind: JobKind<R>,
  row: R,
  waitMs: number,
): Promise<void> {
  const state = jobState(kind, row);
  if (!isJobActive(state) || waitMs <= 0) return;
  try {
    const client = await temporal.getClient();
    const handle = client.workflow.getHandle(jobWorkflowId(kind, row.id, state.generation));
    await client.withDeadline(Date.now() + waitMs, () => handle.result());
  } catch {
    // the row says what happened
  }
}

/**
 * Rows of `kind` whose current generation asked for work more than `graceSeconds` ago and has not ended:
 * with no known run (`run: 'missing'`, the reconciler's) or with one (`'known'`, the repair pass's).
 */
export async function activeJobRows<R extends JobRow>(
  db: Db,
  kind: JobKind<R>,
  options: { graceSeconds: number; organizationId?: string; limit: number; run: 'missing' | 'known' },
): Promise<R[]> {
  const before = new Date(Date.now() - options.graceSeconds * 1000);
  const runId = options.run === 'missing' ? IsNull() : Not(IsNull());
  return db.find(kind.entity, {
    where: {
      ...(options.organizationId ? { organizationId: options.organizationId } : {}),
      [kind.state]: { requestedAt: LessThanOrEqual(before), runId, finishedAt: IsNull() },
    } as FindOptionsWhere<R>,
    order: { [kind.state]: { requestedAt: 'ASC' } } as never,
    take: options.limit,
  });
}

export interface ReconcileReport {
  started: number;
  failed: number;
}

/**
 * The one reconciler: starts every run that a crash between a request's commit and its start left
 * unstarted, for every kind. `organizationId` narrows it to one organization (tests, a targeted repair).
 */
export async function startMissingRuns(
  temporal: TemporalGateway,
  db: Db,
  options: { graceSeconds: number; organizationId?: string; logger: Logger },
): Promise<ReconcileReport> {
  const report: ReconcileReport = { started: 0, failed: 0 };
  for (const kind of JOB_KINDS) {
    for (const row of await activeJobRows(db, kind, { ...options, limit: 500, run: 'missing' })) {
      try {
        await startJob(temporal, db, { kind, row, start: true, superseded: null });
        report.started++;
      } catch (err) {
        report.failed++;
        options.logger.warn({ err, job: kind.name, resourceId: row.id }, 'reconciler could not start a job');
      }
    }
  }
  return report;
}

/** The one cleanup: every kind removes the rows and outputs its retention let expire; expired idempotency keys go too. */
export async function expireJobs(
  db: Db,
  config: Config,
  blobs: BlobStore,
  now = new Date(),
): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const kind of JOB_KINDS) {
    if (kind.retention) removed[kind.name] = await kind.retention.expire(db, config, now, blobs);
  }
  removed['idempotency-keys'] = await expireIdempotencyKeys(db, now);
  return removed;
}
