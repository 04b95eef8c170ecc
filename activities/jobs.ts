/**
 * The steps every job shares, over the registry: begin, progress, finish and fail write the row of
 * the run's generation and nothing once it moved on; the reconciler and the cleanup run from Schedules.
 */

import { JOB_FAILURES, type JobFailure, type JobRef } from '../domain/jobs/contracts';
import { JobError } from '../domain/jobs/job-error';
import { jobState } from '../domain/jobs/job-kind';
import {
  lockCurrentJob,
  lockJobRow,
  markJobStarted,
  recordJobEnd,
  reportJobProgress,
} from '../domain/jobs/job-lifecycle';
import { RepairReport, repairLostRuns } from '../domain/jobs/job-repair';
import { expireJobs, jobKindNamed, ReconcileReport, startMissingRuns } from '../domain/jobs/kinds';
import { inTransaction } from '../platform/db/transactions';
import type { ActivityDeps } from './deps';
import { permanentFailures } from './job-activity';

export interface JobActivities {
  /** Records that the run began; SUPERSEDED if the row's generation moved on. */
  beginJob(ref: JobRef): Promise<void>;
  reportJobProgress(ref: JobRef, done: number, total: number | null): Promise<void>;
  /** Records success; for a coalescing kind with a request during the run, asks for the next run. */
  finishJob(ref: JobRef): Promise<void>;
  /** Records a failure's code and messages; nothing if the run was superseded meanwhile. */
  failJob(ref: JobRef, failure: JobFailure): Promise<void>;
  /**
   * Starts the runs whose start was lost, then repairs the runs lost after their start (job-repair.ts).
   * `organizationId` and `graceSeconds` narrow a pass (tests, a targeted repair).
   */
  reconcileJobs(scope: { organizationId?: string; graceSeconds?: number }): Promise<ReconcileReport & RepairReport>;
  expireJobs(): Promise<Record<string, number>>;
}

function kindOf(ref: JobRef) {
  const kind = jobKindNamed(ref.kind);
  if (!kind) throw new JobError(JOB_FAILURES.failed, `unknown job kind ${ref.kind}`);
  return kind;
}

export function createJobActivities(deps: ActivityDeps): JobActivities {
  const { ds, config, temporal, clock, logger, metrics } = deps;
  const finish = async (ref: JobRef, failure: JobFailure | null) => {
    const kind = kindOf(ref);
    const now = clock();
    const finished = await inTransaction(deps, async (db) => {
      // a kind whose success removes its row: no row, that success was recorded (a retried finish)
      if (!failure && kind.removesRow && !(await lockJobRow(db, kind, ref.resourceId))) return null;
      // the run's start gives its duration; a retried finish finds the run recorded already
      const before = jobState(kind, await lockCurrentJob(db, kind, ref));
      if (before.finishedAt) return null;
      // a coalesced request's next run starts once this commits (after-commit.ts); a lost start is the reconciler's
      await recordJobEnd(db, kind, ref, failure, now);
      return { startedAt: before.startedAt };
    });
    if (!finished) return;
    metrics.jobFinished(ref.kind, failure?.code ?? null, finished.startedAt, now);
  };
  return permanentFailures<JobActivities>({
    beginJob: async (ref) => {
      const kind = kindOf(ref);
      const began = await inTransaction(ds, async (db) => {
        const before = jobState(kind, await lockCurrentJob(db, kind, ref));
        await markJobStarted(db, kind, ref, clock());
        return before.startedAt === null;
      });
      if (began) metrics.jobStarted(ref.kind);
    },
    reportJobProgress: (ref, done, total) =>
      inTransaction(ds, (db) => reportJobProgress(db, kindOf(ref), ref, done, total)),
    finishJob: (ref) => finish(ref, null),
    failJob: async (ref, failure) => {
      try {
        await finish(ref, failure);
      } catch (err) {
        if (!(err instanceof JobError && err.code === JOB_FAILURES.superseded)) throw err;
      }
    },
    reconcileJobs: async (scope) => {
      const options = { graceSeconds: config.jobs.reconcileIntervalSeconds, ...scope, logger };
      const started = await startMissingRuns(temporal, ds.manager, options);
      return { ...started, ...(await repairLostRuns(deps, options)) };
    },
    expireJobs: () => expireJobs(ds.manager, config, deps.blobs, clock()),
  });
}
