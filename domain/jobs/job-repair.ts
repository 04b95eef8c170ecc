/**
 * The repair pass, run with the reconciler: a run that closed without writing its end on the row
 * (terminated, timed out, failed in its own bookkeeping, or gone from Temporal) would leave its job
 * active forever, and every later request would coalesce behind it or find it "pending". The pass finds
 * such rows, records RUN_LOST with what Temporal says of the run, and does what the kind declares
 * (`onLostRun`): ask for a new generation, or stay failed until the user asks again.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Logger } from 'pino';
import type { WorkTx } from '../../platform/db/after-commit';
import { inTransaction, type WorkSource } from '../../platform/db/transactions';
import type { TemporalGateway } from '../../platform/temporal/gateway';
import { JOB_FAILURES, jobWorkflowId } from './contracts';
import { isJobActive, JobKind, JobRow, JobTicket, jobRef, jobState } from './job-kind';
import { lockJobRow, recordJobEnd, requestJob } from './job-lifecycle';
import { startJob } from './job-start';
import { activeJobRows, JOB_KINDS } from './kinds';

export interface RepairReport {
  /** Rows whose lost run was recorded as RUN_LOST. */
  repaired: number;
  /** Of those, the new runs started (a kind that asks again, or a coalesced request). */
  restarted: number;
}

/**
 * The run's state in Temporal, looked up by its workflow id (so a continued-as-new or retried run is
 * followed to its latest execution): `RUNNING`, a closed status, or `NOT_FOUND` (never started, or
 * removed by the namespace's retention).
 */
async function runStatus(temporal: TemporalGateway, workflowId: string): Promise<string> {
  const client = await temporal.getClient();
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'NOT_FOUND';
    throw err;
  }
}

/**
 * Records the loss on the row locked in `db`'s transaction, unless the run ended (or the row moved on)
 * since it was read; returns the run to start next, if any.
 */
async function recordLostRun<R extends JobRow>(
  db: WorkTx,
  kind: JobKind<R>,
  seen: R,
  status: string,
): Promise<{ recorded: boolean; next: JobTicket<R> | null }> {
  const seenState = jobState(kind, seen);
  const row = await lockJobRow(db, kind, seen.id);
  if (!row) return { recorded: false, next: null };
  const state = jobState(kind, row);
  if (!isJobActive(state) || state.generation !== seenState.generation || state.runId !== seenState.runId)
    return { recorded: false, next: null };
  const message =
    status === 'NOT_FOUND'
      ? 'the run is gone from Temporal without recording its end'
      : `the run closed without recording its end (Temporal status: ${status})`;
  const coalesced = await recordJobEnd(db, kind, jobRef(kind, row), {
    code: JOB_FAILURES.lost,
    messages: [{ message }],
  });
  if (coalesced) return { recorded: true, next: coalesced };
  if (kind.onLostRun !== 'request-again') return { recorded: true, next: null };
  // asked again of the row as it ended (a single-run kind finds no run under way to attach to)
  const ended = (await lockJobRow(db, kind, row.id))!;
  return { recorded: true, next: await requestJob(db, kind, ended) };
}

/** What repairing one row found: the run's Temporal status, and whether the row was repaired and a run restarted. */
export interface RunRepair {
  status: string;
  repaired: boolean;
  restarted: boolean;
}

/**
 * Repairs one row whose job is active with a run: nothing while the run is RUNNING; otherwise RUN_LOST,
 * then what the kind declares. Also used by `cli jobs retry` on a lost job.
 */
export async function repairRun<R extends JobRow>(work: WorkSource, kind: JobKind<R>, row: R): Promise<RunRepair> {
  const state = jobState(kind, row);
  const status = await runStatus(work.temporal, jobWorkflowId(kind, row.id, state.generation));
  if (status === 'RUNNING') return { status, repaired: false, restarted: false };
  const { recorded, next } = await inTransaction(work, (tx) => recordLostRun(tx, kind, row, status));
  // the commit's own work started it already; this finds that run (or starts it) and says whether it runs
  const restarted = !!next && !!(await startJob(work.temporal, work.ds.manager, next));
  return { status, repaired: recorded, restarted };
}

/** The pass over every kind; `organizationId` narrows it (tests, a targeted repair). */
export async function repairLostRuns(
  work: WorkSource,
  options: { graceSeconds: number; organizationId?: string; logger: Logger },
): Promise<RepairReport> {
  const report: RepairReport = { repaired: 0, restarted: 0 };
  for (const kind of JOB_KINDS) {
    for (const row of await activeJobRows(work.ds.manager, kind, { ...options, limit: 500, run: 'known' })) {
      const where = { job: kind.name, resourceId: row.id, generation: jobState(kind, row).generation };
      try {
        const repair = await repairRun(work, kind, row);
        if (!repair.repaired) continue;
        report.repaired++;
        if (repair.restarted) report.restarted++;
        options.logger.warn({ ...where, ...repair }, 'job run lost: repaired');
      } catch (err) {
        options.logger.warn({ err, ...where }, 'repair pass could not repair a job');
      }
    }
  }
  return report;
}
