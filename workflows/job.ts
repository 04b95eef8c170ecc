/**
 * The workflow side of the job machinery: the activity options of a run (its configured back-off,
 * bounded by the kind's budget), and `runJob`, which brackets a job's steps with begin and finish on the
 * row, records a failure's code there, and ends a superseded run quietly.
 */

import type { Duration, Payload } from '@temporalio/common';
import type { ActivityOptions } from '@temporalio/workflow';
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ContinueAsNew,
  defaultPayloadConverter,
  isCancellation,
  makeContinueAsNewFunc,
  proxyActivities,
  TimeoutFailure,
  workflowInfo,
} from '@temporalio/workflow';
import type { JobActivities } from '../activities/jobs';
import { JOB_FAILURES, type JobFailure, type JobOutcome, type JobRun } from '../domain/jobs/contracts';

/**
 * A work step's options: a failure that may pass (a 5xx, a network or database error, a lost worker) is
 * retried until the kind's budget (its scheduleToCloseTimeout) is spent, or the configured attempts where
 * set; a permanent one (a non-retryable JobError) is not. Runs started before the budget keep their attempts.
 */
export function jobActivityOptions(run: JobRun, startToCloseTimeout: Duration): ActivityOptions {
  return {
    startToCloseTimeout,
    scheduleToCloseTimeout: run.retry.budgetMs,
    retry: {
      initialInterval: run.retry.initialIntervalMs,
      maximumInterval: run.retry.maximumIntervalMs,
      backoffCoefficient: 2,
      // 0: bounded by the budget only
      maximumAttempts: run.retry.maximumAttempts || undefined,
    },
  };
}

/**
 * For activities that heartbeat (activities/heartbeat.ts): an attempt silent for JOB_HEARTBEAT_TIMEOUT_MS
 * (its worker died) is retried then, not at its start-to-close timeout.
 */
export function heartbeatingActivityOptions(run: JobRun, startToCloseTimeout: Duration): ActivityOptions {
  return { ...jobActivityOptions(run, startToCloseTimeout), heartbeatTimeout: run.retry.heartbeatTimeoutMs };
}

/** A version's runs started before the bookkeeping budget was configured get this one. */
const BOOKKEEPING_BUDGET_MS = 6 * 3600 * 1000;

/**
 * Begin, finish and fail write the row and nothing else, and a failed run's clean-up (a discarded bundle or
 * staging, an abandoned event) only removes what it left: they retry until the database answers again, for
 * hours rather than minutes, so a database outage delays a job and never ends it wrongly or leaves it behind.
 */
export function bookkeepingActivityOptions(run: JobRun, startToCloseTimeout: Duration = '30 seconds'): ActivityOptions {
  return {
    startToCloseTimeout,
    scheduleToCloseTimeout: run.retry.bookkeepingBudgetMs ?? BOOKKEEPING_BUDGET_MS,
    // no maximumAttempts: bounded by the total time only
    retry: {
      initialInterval: run.retry.initialIntervalMs,
      maximumInterval: run.retry.maximumIntervalMs,
      backoffCoefficient: 2,
    },
  };
}

/**
 * The JobError of the attempt before the one the budget ran out in: the server attaches it to the
 * timeout, and the SDK decodes the timeout without it, so it is read from the raw failure.
 */
function jobErrorBefore(timeout: TimeoutFailure): JobFailure | null {
  const info = timeout.failure?.cause?.applicationFailureInfo;
  const payload = info?.details?.payloads?.[0];
  if (!info?.type || !payload) return null;
  const messages = defaultPayloadConverter.fromPayload<unknown>(payload as Payload);
  return Array.isArray(messages) ? { code: info.type, messages } : null;
}

/**
 * The code and messages a failure is recorded with: a JobError's (a permanent one, or a retryable one whose
 * retries are spent: its last attempt's), CANCELLED, or JOB_FAILED.
 */
export function failureOf(err: unknown): JobFailure {
  if (isCancellation(err)) return { code: JOB_FAILURES.cancelled, messages: [{ message: 'the run was cancelled' }] };
  const cause = err instanceof ActivityFailure ? err.cause : err;
  const before = cause instanceof TimeoutFailure ? jobErrorBefore(cause) : null;
  if (before) return before;
  const details = cause instanceof ApplicationFailure ? cause.details?.[0] : undefined;
  // a retryable failure carries a code only when a JobError raised it (its messages are the details)
  if (cause instanceof ApplicationFailure && cause.type && (cause.nonRetryable || Array.isArray(details))) {
    return {
      code: cause.type,
      messages: Array.isArray(details) ? (details as JobFailure['messages']) : [{ message: cause.message }],
    };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return { code: JOB_FAILURES.failed, messages: [{ message }] };
}

export function isSuperseded(err: unknown): boolean {
  return failureOf(err).code === JOB_FAILURES.superseded;
}

/** Writes the failure on the row, even while the run is being cancelled. */
export async function recordJobFailure(run: JobRun, err: unknown): Promise<void> {
  const { failJob } = proxyActivities<JobActivities>(bookkeepingActivityOptions(run));
  await CancellationScope.nonCancellable(() => failJob(run, failureOf(err)));
}

/** Whether `err` is this run handing over to its continuation: not a failure, nothing to record or clean up. */
export const isContinuation = (err: unknown): boolean => err instanceof ContinueAsNew;

/**
 * Runs a job's steps between begin and finish. A step that finds the generation moved on
 * (SUPERSEDED) ends the run without writing; any other failure is recorded on the row and fails
 * the workflow, so the Temporal UI shows it failed too. A run that continues an earlier one
 * (`continued`) was begun by it; one that continues as new hands over without finishing.
 */
export async function runJob<T>(run: JobRun, steps: () => Promise<T>, continued = false): Promise<JobOutcome<T>> {
  const { beginJob, finishJob } = proxyActivities<JobActivities>(bookkeepingActivityOptions(run));
  try {
    if (!continued) await beginJob(run);
    const result = await steps();
    await finishJob(run);
    return { state: 'done', result };
  } catch (err) {
    if (isContinuation(err)) throw err;
    if (isSuperseded(err)) return { state: 'superseded' };
    await recordJobFailure(run, err);
    throw err;
  }
}

/**
 * Bounds a job's history: `due()` before each step of a loop that grows with the data says whether the run should
 * continue as new there, once its history reached the run's JOB_HISTORY_MAX_EVENTS or the server suggests it, and
 * only after this run did a step (so a bound smaller than a run's own start cannot loop). Runs that replay from
 * before patch `jobs-continue-as-new` never continue.
 */
export function historyBound(run: JobRun, patchedIn: boolean): { due(): boolean } {
  let steps = 0;
  return {
    due: () => {
      if (!patchedIn || steps++ === 0) return false;
      const info = workflowInfo();
      return (!!run.historyMaxEvents && info.historyLength >= run.historyMaxEvents) || info.continueAsNewSuggested;
    },
  };
}

/**
 * Continues the workflow as new with `input`: the same workflow id (so the row's run, cancel, fencing and the repair
 * pass follow it), its memo (the progress the Temporal UI shows) and its search attributes.
 */
export function continueJob<I>(workflow: (input: I) => Promise<unknown>, input: I): Promise<never> {
  const info = workflowInfo();
  return makeContinueAsNewFunc<typeof workflow>({
    memo: info.memo,
    typedSearchAttributes: info.typedSearchAttributes,
  })(input);
}
