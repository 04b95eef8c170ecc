/**
 * What a job kind declares (docs/architecture.md#the-job-machinery), and the row transitions every kind shares: asking for work,
 * withdrawing it, and the checks that make each step a no-op once the generation moved on. The
 * registry of kinds, the typed start and the reconciler are in jobs.ts.
 */
import type { EntityTarget, FindOptionsWhere } from 'typeorm';
import type { JobState } from '../../entities/JobState';
import { afterCommit } from '../after-commit';
import type { Config } from '../config';
import type { Db } from '../db';
import type { BlobStore } from '../storage/blob-store';
import {
  JOB_FAILURES,
  type JOB_KINDS,
  type JobFailure,
  type JobPolicy,
  type JobRef,
  type JobWorkflowName,
  type KindInput,
} from './contracts';
import { JobError } from './job-error';
import { dispatchJob } from './job-start';

/** A row that carries job columns: the resource a job works on, or a row of the job's own. */
export interface JobRow {
  id: string;
  organizationId: string;
}

/** Property names of R whose type is the embedded JobState. */
export type JobStateKey<R> = { [K in keyof R]: R[K] extends JobState ? K : never }[keyof R] & string;

export interface JobKind<
  R extends JobRow = JobRow,
  N extends JobWorkflowName = JobWorkflowName,
  S extends string = string,
> {
  /** First segment of the workflow id, and `cli jobs list --kind`: the contracts' name of the kind's workflow. */
  name: (typeof JOB_KINDS)[N];
  /** Exported name of the workflow function in workflows/index.ts (its contract: WorkflowContracts). */
  workflow: N;
  entity: EntityTarget<R>;
  /** The row's embedded JobState property. */
  state: JobStateKey<R>;
  input(row: R): KindInput<N>;
  /** The space the job belongs to, for the SpaceId search attribute; null where there is none. */
  spaceId(row: R): string | null;
  /** What a request during a run does, and whether the workflow id names the generation (contracts.ts). */
  policy: JobPolicy;
  /**
   * Its public status, from the row's state: the one word its resource's API answers (GitBook's), and the one
   * `cli jobs` shows beside the machinery's (jobStatus). A kind without an API of its own answers jobStatus.
   */
  publicStatus(state: JobState): S;
  /**
   * What the row's progress counts (`progressDone` of `progressTotal`, total null when there is none to reach):
   * one meaning, shown as is by the API, `cli jobs list` and `cli jobs watch`; null: the kind reports none.
   */
  progressUnit: string | null;
  /**
   * What the repair pass does once it recorded RUN_LOST on a row whose run closed without ending it:
   * `request-again` starts a new generation (work nobody will ask for again: a purge, a delivery);
   * `stay-failed` leaves it failed, so the user's next request starts one. A coalescing kind also runs
   * the request that waited behind the lost run, as after any failure.
   */
  onLostRun: 'request-again' | 'stay-failed';
  /**
   * Called when a new generation is asked for after the last one ended (a retry, the repair pass): puts
   * back on the row what the kind's steps need to run again (an event that failed is pending again).
   */
  beforeRunAgain?(db: Db, row: R): Promise<void>;
  /**
   * The run's success removes the row, in the transaction that records it (a purge removes its space): a
   * retried finish that finds no row finds that success.
   */
  removesRow?: true;
  /**
   * How long a step retries a failure that may pass (a 5xx or 429, a network, DNS or database error, a lost
   * worker) before the run fails with it: its activities' scheduleToCloseTimeout. A permanent failure (a
   * 4xx, a refused destination, a parse error, input over a limit) fails at once.
   */
  retryBudgetMs: number;
  /** How long rows and outputs are kept, and how expired ones are removed (blobs included); null: the job removes its own. */
  retention: null | { describe: string; expire(db: Db, config: Config, now: Date, blobs: BlobStore): Promise<number> };
}

/** Checks a kind's declaration against its workflow's contract (WorkflowContracts). */
export function defineJobKind<R extends JobRow, N extends JobWorkflowName, S extends string>(
  kind: JobKind<R, N, S>,
): JobKind<R, N, S> {
  return kind;
}

/** What a request asked for, done once its transaction has committed (dispatchAfterCommit). */
export interface JobTicket<R extends JobRow = JobRow> {
  kind: JobKind<R>;
  row: R;
  /** Start (or find) the run of the row's current generation. */
  start: boolean;
  /** The generation whose run this request superseded: cancel it (its steps are no-ops anyway). */
  superseded: number | null;
}

export function jobState<R extends JobRow>(kind: JobKind<R>, row: R): JobState {
  return row[kind.state] as unknown as JobState;
}

export function jobRef<R extends JobRow>(kind: JobKind<R>, row: R): JobRef {
  return { kind: kind.name, resourceId: row.id, generation: jobState(kind, row).generation };
}

/** A run was asked for and has not ended (it may not have started yet). */
export function isJobActive(state: JobState): boolean {
  return state.requestedAt !== null && state.finishedAt === null;
}

export type JobStatus = 'idle' | 'pending' | 'running' | 'succeeded' | 'failed';

export function jobStatus(state: JobState): JobStatus {
  if (!state.requestedAt) return 'idle';
  if (state.finishedAt) return state.errorCode ? 'failed' : 'succeeded';
  return state.startedAt ? 'running' : 'pending';
}

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

function freshRun(generation: number, requestedAt: Date | null): Partial<JobState> {
  return {
    generation,
    requestedAt,
    runId: null,
    startedAt: null,
    finishedAt: null,
    progressDone: 0,
    progressTotal: null,
    errorCode: null,
    errorMessages: null,
    rerunRequested: false,
  };
}

/**
 * Registers the ticket's work on the transaction of `db` (after-commit.ts): once it commits, the superseded
 * run is cancelled and the asked-for one started (job-start.ts dispatchJob); a rollback drops both.
 */
function dispatchAfterCommit<R extends JobRow>(db: Db, ticket: JobTicket<R>): JobTicket<R> {
  if (ticket.start || ticket.superseded !== null)
    afterCommit(db, ({ temporal, logger }) => dispatchJob(temporal, db.connection.manager, ticket, logger));
  return ticket;
}

/**
 * Asks for a run of the job on `row`, which the caller has locked in this transaction
 * (lockJobRow). The kind's policy decides what a request during a run does.
 */
export async function requestJob<R extends JobRow>(
  db: Db,
  kind: JobKind<R>,
  row: R,
  now = new Date(),
): Promise<JobTicket<R>> {
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
  return dispatchAfterCommit(db, { kind, row, start: true, superseded });
}

/** The run already asked for, started again only if its start was lost (a retried request). */
export function currentJob<R extends JobRow>(db: Db, kind: JobKind<R>, row: R): JobTicket<R> {
  const state = jobState(kind, row);
  return dispatchAfterCommit(db, { kind, row, start: isJobActive(state) && state.runId === null, superseded: null });
}

/** Withdraws the work asked for (a restore withdraws a purge): a run in progress becomes stale. */
export async function withdrawJob<R extends JobRow>(db: Db, kind: JobKind<R>, row: R): Promise<JobTicket<R>> {
  const state = jobState(kind, row);
  if (!isJobActive(state)) return { kind, row, start: false, superseded: null };
  const superseded = state.generation;
  await writeState(db, kind, row, freshRun(state.generation + 1, null));
  return dispatchAfterCommit(db, { kind, row, start: false, superseded });
}

/**
 * Ends the work asked for as cancelled, keeping its times: the run in progress becomes stale (a new
 * generation that asks for nothing more), and the row records CANCELLED with `message`.
 */
export async function cancelJob<R extends JobRow>(
  db: Db,
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
  return dispatchAfterCommit(db, { kind, row, start: false, superseded });
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
export async function finishJob<R extends JobRow>(
  db: Db,
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
