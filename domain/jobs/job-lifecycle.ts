/**
 * The row transitions every job kind shares (docs/jobs.md): asking for work, withdrawing it, cancelling it,
 * and the checks that make each step a no-op once the generation moved on. A request registers the start of
 * its run on its transaction, to follow the commit (job-start.ts applyJobTicket).
 */
import type { FindOptionsWhere } from 'typeorm';
import { idleJobState, type JobState } from '../../entities/JobState';
import { assertWorkTx, type WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import { JOB_FAILURES, type JobFailure, type JobRef } from './contracts';
import { JobError } from './job-error';
import { isJobActive, type JobKind, type JobRow, type JobTicket, jobState } from './job-kind';
import { applyJobTicket } from './job-start';

/** Locks the job's row for the rest of the transaction (null if it does not exist). */
export async function lockJobRow<R extends JobRow>(db: Db, kind: JobKind<R>, id: string): Promise<R | null> {
  return db.findOne(kind.entity, { where: { id } as FindOptionsWhere<R>, lock: { mode: 'pessimistic_write' } });
}

async function writeState<R extends JobRow>(
  db: Db,
  kind: JobKind<R>,
  row: R,
  changes: Partial<JobState>,
): Promise<void> {
  const state = Object.assign(jobState(kind, row), changes);
  await db.update(kind.entity, { id: row.id } as FindOptionsWhere<R>, { [kind.state]: { ...state } } as never);
}

/** The columns of a new generation: an idle row's, asked for at `requestedAt` (null: withdrawn). */
function freshRun(generation: number, requestedAt: Date | null): Partial<JobState> {
  return { ...idleJobState(), generation, requestedAt };
}

/**
 * Registers the ticket's work on the transaction of `db` (after-commit.ts): once it commits, the superseded
 * run is cancelled and the asked-for one started (job-start.ts applyJobTicket); a rollback drops both.
 */
function applyTicketAfterCommit<R extends JobRow>(tx: WorkTx, ticket: JobTicket<R>): JobTicket<R> {
  assertWorkTx(tx);
  const { temporal, logger } = tx.services;
  if (ticket.start || ticket.superseded !== null)
    tx.afterCommit(() => applyJobTicket(temporal, tx.connection.manager, ticket, logger));
  return ticket;
}

/**
 * Asks for a run of the job on `row`, which the caller has locked in this transaction
 * (lockJobRow). The kind's policy decides what a request during a run does.
 */
export async function requestJob<R extends JobRow>(
  db: WorkTx,
  kind: JobKind<R>,
  row: R,
  now = new Date(),
): Promise<JobTicket<R>> {
  assertWorkTx(db); // before the row is written: a request nothing would start is not left behind
  const state = jobState(kind, row);
  if (kind.policy === 'coalesce' && isJobActive(state)) {
    await writeState(db, kind, row, { rerunRequested: true });
    return { kind, row, start: false, superseded: null };
  }
  // one workflow id for every generation: the run under way is the one asked for
  if (kind.policy === 'single-run' && isJobActive(state)) return currentJob(db, kind, row);
  const superseded = isJobActive(state) ? state.generation : null;
  if (state.finishedAt && kind.beforeRunAgain) await kind.beforeRunAgain(db, row);
  await writeState(db, kind, row, freshRun(state.generation + 1, now));
  return applyTicketAfterCommit(db, { kind, row, start: true, superseded });
}

/** The run already asked for, started again only if its start was lost (a retried request). */
export function currentJob<R extends JobRow>(db: WorkTx, kind: JobKind<R>, row: R): JobTicket<R> {
  const state = jobState(kind, row);
  return applyTicketAfterCommit(db, { kind, row, start: isJobActive(state) && state.runId === null, superseded: null });
}

/** Withdraws the work asked for (a restore withdraws a purge): a run in progress becomes stale. */
export async function withdrawJob<R extends JobRow>(db: WorkTx, kind: JobKind<R>, row: R): Promise<JobTicket<R>> {
  assertWorkTx(db);
  const state = jobState(kind, row);
  if (!isJobActive(state)) return { kind, row, start: false, superseded: null };
  const superseded = state.generation;
  await writeState(db, kind, row, freshRun(state.generation + 1, null));
  return applyTicketAfterCommit(db, { kind, row, start: false, superseded });
}

/**
 * Ends the work asked for as cancelled, keeping its times: the run in progress becomes stale (a new
 * generation that asks for nothing more), and the row records CANCELLED with `message`.
 */
export async function cancelJob<R extends JobRow>(
  db: WorkTx,
  kind: JobKind<R>,
  row: R,
  message: string,
  now = new Date(),
): Promise<JobTicket<R>> {
  const state = jobState(kind, row);
  if (!isJobActive(state)) return { kind, row, start: false, superseded: null };
  const superseded = state.generation;
  await writeState(db, kind, row, {
    generation: state.generation + 1,
    runId: null,
    finishedAt: now,
    errorCode: JOB_FAILURES.cancelled,
    errorMessages: [{ message }],
    rerunRequested: false,
  });
  return applyTicketAfterCommit(db, { kind, row, start: false, superseded });
}

/**
 * Locks the row of `ref` and checks that its generation is still the current one; a step of a
 * superseded run (or of a removed row) gets a SUPERSEDED JobError and writes nothing.
 */
export async function lockCurrentJob<R extends JobRow>(db: Db, kind: JobKind<R>, ref: JobRef): Promise<R> {
  const row = await lockJobRow(db, kind, ref.resourceId);
  if (!row || jobState(kind, row).generation !== ref.generation) {
    throw new JobError(JOB_FAILURES.superseded, `${ref.kind}/${ref.resourceId}/${ref.generation} was superseded`);
  }
  return row;
}

export async function markJobStarted<R extends JobRow>(
  db: Db,
  kind: JobKind<R>,
  ref: JobRef,
  now = new Date(),
): Promise<void> {
  const row = await lockCurrentJob(db, kind, ref);
  if (!jobState(kind, row).startedAt) await writeState(db, kind, row, { startedAt: now });
}

export async function reportJobProgress<R extends JobRow>(
  db: Db,
  kind: JobKind<R>,
  ref: JobRef,
  done: number,
  total: number | null,
): Promise<void> {
  const row = await lockCurrentJob(db, kind, ref);
  await writeState(db, kind, row, { progressDone: done, progressTotal: total });
}

/**
 * Ends the run on the row: success, or the failure's code and messages. For a coalescing kind
 * with a request that arrived during the run, it asks for the next run and returns its ticket.
 */
export async function recordJobEnd<R extends JobRow>(
  db: WorkTx,
  kind: JobKind<R>,
  ref: JobRef,
  failure: JobFailure | null,
  now = new Date(),
): Promise<JobTicket<R> | null> {
  const row = await lockCurrentJob(db, kind, ref);
  const state = jobState(kind, row);
  if (state.finishedAt) return null; // a retried finish
  const rerun = state.rerunRequested;
  await writeState(db, kind, row, {
    finishedAt: now,
    errorCode: failure?.code ?? null,
    errorMessages: failure?.messages ?? null,
    rerunRequested: false,
  });
  if (!failure && kind.removesRow) await db.delete(kind.entity, { id: row.id } as FindOptionsWhere<R>);
  return rerun ? requestJob(db, kind, row, now) : null;
}
