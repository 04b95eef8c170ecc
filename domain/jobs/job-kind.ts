/**
 * What a job kind declares (docs/jobs.md), and what a row's job columns say: its state, its reference and its
 * status. The row transitions every kind shares are in job-lifecycle.ts, the registry of kinds in kinds.ts.
 */
import type { EntityTarget } from 'typeorm';
import type { JobState } from '../../entities/JobState';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { JOB_KIND_NAMES, JobPolicy, JobRef, JobWorkflowName, KindInput } from './contracts';

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
  name: (typeof JOB_KIND_NAMES)[N];
  /** Exported name of the workflow function in workflows/index.ts (its contract: WorkflowContracts). */
  workflow: N;
  entity: EntityTarget<R>;
  /** The row's embedded JobState property. */
  state: JobStateKey<R>;
  input(row: R): KindInput<N>;
  /** The space the job belongs to, for the SpaceId search attribute; null where there is none. */
  spaceId(row: R): string | null;
  /**
   * Columns naming what a user asked about when the job started (a change request for its PDF, a space for its
   * import): `cli jobs watch` and `jobs list --about` find the job by those ids as well as by the row's own. Each an
   * indexed column, or one of a table its retention keeps small.
   */
  askedAbout: ReadonlyArray<keyof R & string>;
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

/** What a request asked for, done once its transaction has committed (applyTicketAfterCommit). */
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
