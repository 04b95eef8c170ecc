/**
 * The registry of job kinds and what the machinery does with them (docs/architecture.md#the-job-machinery): the typed start
 * under `<job>/<resourceId>/<generation>` with the search attributes, the cancel of a superseded
 * run, one reconciler for every kind, and one cleanup of what expired. A kind is declared beside
 * its domain (defineJobKind in job-kind.ts) and listed in JOB_KIND_LIST.
 */
import {
  type Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';
import type { Logger } from 'pino';
import { type FindOptionsWhere, IsNull, LessThanOrEqual, Not } from 'typeorm';
import { type Config, heavyTaskQueueOf, type JobsConfig, type TemporalConfig } from '../config';
import type { Db } from '../db';
import { contentImportJob } from '../imports/import-job';
import { integrationDispatchJob } from '../integrations/dispatch-job';
import { openapiProcessJob } from '../openapi-specs/process-job';
import { pdfExportJob } from '../pdf/export-job';
import { spacePurgeJob } from '../spaces/purge-job';
import type { BlobStore } from '../storage/blob-store';
import { translationRunJob } from '../translations/run-job';
import { type JobRun, type JobWorkflowName, jobWorkflowId, SEARCH_ATTRIBUTES } from './contracts';
import { isJobActive, JobKind, JobRow, JobTicket, jobRef, jobState } from './job-kind';
import type { TemporalGateway } from './temporal';

/** A kind over any row type, as the registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: each kind's row type differs; unknown would not accept their callbacks
type AnyJobKind = JobKind<any, JobWorkflowName>;

/**
 * Every job kind of the service, by the workflow that runs it: the contracts' JOB_KINDS are the one list, and a
 * kind missing here is a compile error (test/domain/job-registries.test.ts checks the other lists against it).
 */
// biome-ignore lint/suspicious/noExplicitAny: each kind's row type differs
const JOB_KINDS_BY_WORKFLOW: { [N in JobWorkflowName]: JobKind<any, N> } = {
  spacePurge: spacePurgeJob,
  openapiProcess: openapiProcessJob,
  pdfExport: pdfExportJob,
  contentImport: contentImportJob,
  translationRun: translationRunJob,
  integrationDispatch: integrationDispatchJob,
};

export const JOB_KIND_LIST: readonly AnyJobKind[] = Object.values(JOB_KINDS_BY_WORKFLOW);

export function jobKindNamed(name: string): AnyJobKind | undefined {
  return JOB_KIND_LIST.find((k) => k.name === name);
}

const organizationKey = defineSearchAttributeKey(SEARCH_ATTRIBUTES.organization, SearchAttributeType.KEYWORD);
const spaceKey = defineSearchAttributeKey(SEARCH_ATTRIBUTES.space, SearchAttributeType.KEYWORD);
const resourceKey = defineSearchAttributeKey(SEARCH_ATTRIBUTES.resource, SearchAttributeType.KEYWORD);

export function jobSearchAttributes<R extends JobRow>(kind: JobKind<R>, row: R): TypedSearchAttributes {
  const spaceId = kind.spaceId(row);
  return new TypedSearchAttributes([
    { key: organizationKey, value: row.organizationId },
    ...(spaceId ? [{ key: spaceKey, value: spaceId }] : []),
    { key: resourceKey, value: row.id },
  ]);
}

export function jobRun<R extends JobRow>(kind: JobKind<R>, row: R, config: JobsConfig & TemporalConfig): JobRun {
  return {
    ...jobRef(kind, row),
    retry: { ...config.jobs.retry, budgetMs: kind.retryBudgetMs },
    heavyTaskQueue: heavyTaskQueueOf(config.temporal),
  };
}

/**
 * Starts the run of the row's current generation, or finds it (a retried request, the
 * reconciler), and records its run id on the row. Call it after the request's commit.
 */
export async function startJob<R extends JobRow>(
  temporal: TemporalGateway,
  db: Db,
  ticket: JobTicket<R>,
): Promise<string | null> {
  if (!ticket.start) return null;
  const { kind, row } = ticket;
  const run = jobRun(kind, row, temporal.config);
  const workflowId = jobWorkflowId(kind, run.resourceId, run.generation);
  const client = await temporal.getClient();
  const singleRun = kind.policy === 'single-run';
  // a single-run kind's id has no generation: a later generation must not attach to the earlier run, which
  // may still be closing (its row already ended), so it waits for that run to close first
  if (singleRun && run.generation > 1) await runClosed(client, workflowId);
  let runId: string;
  try {
    const handle = await client.workflow.start(kind.workflow, {
      workflowId,
      taskQueue: temporal.taskQueue,
      // defineJobKind checked input(row) against the workflow's contract
      args: [{ ...kind.input(row), run }],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      // A generation runs once: its closed run is not started again. A single-run kind's id has no
      // generation, so the repair pass's new run reuses it, after a run that failed or was terminated only.
      workflowIdReusePolicy: singleRun
        ? WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY
        : WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: jobSearchAttributes(kind, row),
    });
    runId = handle.firstExecutionRunId;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    runId = (await client.workflow.getHandle(workflowId).describe()).runId;
  }
  const state = jobState(kind, row);
  await db.update(
    kind.entity,
    { id: row.id, [kind.state]: { generation: run.generation, runId: IsNull() } } as FindOptionsWhere<R>,
    { [kind.state]: { runId } } as never,
  );
  state.runId = runId;
  return runId;
}

/** Waits (a bounded time) for the workflow `workflowId`'s current run to close; one that is gone is closed. */
async function runClosed(client: Client, workflowId: string): Promise<void> {
  const handle = client.workflow.getHandle(workflowId);
  try {
    if ((await handle.describe()).status.name !== 'RUNNING') return;
    await client.withDeadline(Date.now() + CLOSING_RUN_WAIT_MS, () => handle.result());
  } catch {
    // gone, failed or still running: the start below decides (reuse or the run that is there)
  }
}

/** How long a later generation of a single-run kind waits for the earlier run to close. */
const CLOSING_RUN_WAIT_MS = 30_000;

/** Cancels the run a request superseded; one already gone is fine (its steps are no-ops anyway). */
export async function cancelSupersededRun<R extends JobRow>(
  temporal: TemporalGateway,
  ticket: JobTicket<R>,
): Promise<void> {
  if (ticket.superseded === null) return;
  const client = await temporal.getClient();
  try {
    await client.workflow.getHandle(jobWorkflowId(ticket.kind, ticket.row.id, ticket.superseded)).cancel();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/**
 * What a request does after its commit: cancel the superseded run, start the new one. Temporal
 * being unreachable does not fail the request: the reconciler (or a retried request) starts it.
 */
export async function dispatchJob<R extends JobRow>(
  temporal: TemporalGateway,
  db: Db,
  ticket: JobTicket<R>,
  logger: Logger,
): Promise<void> {
  const where = { job: ticket.kind.name, resourceId: ticket.row.id };
  try {
    await cancelSupersededRun(temporal, ticket);
  } catch (err) {
    logger.warn(
      { err, ...where, generation: ticket.superseded },
      'superseded run not cancelled; it stops at its next step',
    );
  }
  try {
    await startJob(temporal, db, ticket);
  } catch (err) {
    logger.warn({ err, ...where }, 'job not started; the reconciler will start it');
  }
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
export async function reconcileJobs(
  temporal: TemporalGateway,
  db: Db,
  options: { graceSeconds: number; organizationId?: string; logger: Logger },
): Promise<ReconcileReport> {
  const report: ReconcileReport = { started: 0, failed: 0 };
  for (const kind of JOB_KIND_LIST) {
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

/** The one cleanup: every kind removes the rows and outputs its retention let expire. */
export async function expireJobs(
  db: Db,
  config: Config,
  blobs: BlobStore,
  now = new Date(),
): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const kind of JOB_KIND_LIST) {
    if (kind.retention) removed[kind.name] = await kind.retention.expire(db, config, now, blobs);
  }
  return removed;
}
