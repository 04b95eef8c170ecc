/**
 * The start of a job's run and the cancel of a superseded one (docs/jobs.md):
 * the typed start under `<job>/<resourceId>/<generation>` with the search attributes, and applyJobTicket, the
 * work a ticket registers to follow its transaction's commit (job-kind.ts). Apart from the registry
 * (jobs.ts), which imports every kind, so that job-kind.ts can import it.
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
import { type FindOptionsWhere, IsNull } from 'typeorm';
import { heavyTaskQueueOf, type JobsConfig, type TemporalConfig } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';
import type { TemporalGateway } from '../../platform/temporal/gateway';
import { type JobRun, jobWorkflowId, SEARCH_ATTRIBUTES } from './contracts';
import { type JobKind, type JobRow, type JobTicket, jobRef, jobState } from './job-kind';

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
    historyMaxEvents: config.jobs.historyMaxEvents,
  };
}

/**
 * Starts the run of the row's current generation, or finds it (a retried request, the
 * reconciler), and records its run id on the row. Call it after the commit that asked for it.
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
 * What a ticket's after-commit work does (job-kind.ts registers it as the ticket is made): cancel the
 * superseded run, start the new one. Temporal being unreachable does not fail the request: the
 * reconciler (or a retried request) starts it.
 */
export async function applyJobTicket<R extends JobRow>(
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
