/**
 * The workflow side of the job machinery: the activity options of a run (its configured,
 * bounded retry policy), and `runJob`, which brackets a job's steps with begin and finish on the
 * row, records a failure's code there, and ends a superseded run quietly.
 */

import type { Duration } from '@temporalio/common';
import type { ActivityOptions } from '@temporalio/workflow';
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
} from '@temporalio/workflow';
import type { JobActivities } from '../activities/jobs';
import type { JobRun } from '../domain/processes/job-kind';
import type { JobErrorMessage } from '../entities/JobState';
import { JOB_FAILURES } from './ids';

export function jobActivityOptions(run: JobRun, startToCloseTimeout: Duration): ActivityOptions {
  return {
    startToCloseTimeout,
    retry: {
      initialInterval: run.retry.initialIntervalMs,
      maximumInterval: run.retry.maximumIntervalMs,
      backoffCoefficient: 2,
      maximumAttempts: run.retry.maximumAttempts,
    },
  };
}

/** A version's runs started before the bookkeeping budget was configured get this one. */
const BOOKKEEPING_BUDGET_MS = 6 * 3600 * 1000;

/**
 * Begin, finish and fail write the row and nothing else: they retry until the database answers again,
 * for hours rather than minutes, so a database outage delays a job and never ends it wrongly.
 */
export function bookkeepingActivityOptions(run: JobRun): ActivityOptions {
  return {
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: run.retry.bookkeepingBudgetMs ?? BOOKKEEPING_BUDGET_MS,
    // no maximumAttempts: bounded by the total time only
    retry: {
      initialInterval: run.retry.initialIntervalMs,
      maximumInterval: run.retry.maximumIntervalMs,
      backoffCoefficient: 2,
    },
  };
}

/** The code and messages a failure is recorded with: a JobError's, CANCELLED, or JOB_FAILED. */
export function failureOf(err: unknown): { code: string; messages: JobErrorMessage[] } {
  if (isCancellation(err)) return { code: JOB_FAILURES.cancelled, messages: [{ message: 'the run was cancelled' }] };
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.nonRetryable && cause.type) {
    const details = cause.details?.[0];
    return {
      code: cause.type,
      messages: Array.isArray(details) ? (details as JobErrorMessage[]) : [{ message: cause.message }],
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

export type JobOutcome<T> = { state: 'done'; result: T } | { state: 'superseded' };

/**
 * Runs a job's steps between begin and finish. A step that finds the generation moved on
 * (SUPERSEDED) ends the run without writing; any other failure is recorded on the row and fails
 * the workflow, so the Temporal UI shows it failed too.
 */
export async function runJob<T>(run: JobRun, steps: () => Promise<T>): Promise<JobOutcome<T>> {
  const { beginJob, finishJob } = proxyActivities<JobActivities>(bookkeepingActivityOptions(run));
  try {
    await beginJob(run);
    const result = await steps();
    await finishJob(run);
    return { state: 'done', result };
  } catch (err) {
    if (isSuperseded(err)) return { state: 'superseded' };
    await recordJobFailure(run, err);
    throw err;
  }
}
