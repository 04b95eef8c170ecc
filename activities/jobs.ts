/**
 * The steps every job shares, over the registry: begin, progress, finish and fail write the row of
 * the run's generation and nothing once it moved on; the reconciler and the cleanup run from Schedules.
 */
import type { JobErrorMessage } from '../entities/JobState';
import { inTransaction } from '../domain/db';
import { JobError } from '../domain/processes/job-error';
import { finishJob, JobRef, markJobStarted, reportJobProgress } from '../domain/processes/job-kind';
import { expireJobs, jobKindNamed, reconcileJobs, ReconcileReport, startJob } from '../domain/processes/jobs';
import { JOB_FAILURES } from '../workflows/ids';
import type { ActivityDeps } from './deps';
import { permanentFailures } from './job-activity';

export interface JobActivities {
  /** Records that the run began; SUPERSEDED if the row's generation moved on. */
  beginJob(ref: JobRef): Promise<void>;
  reportJobProgress(ref: JobRef, done: number, total: number | null): Promise<void>;
  /** Records success; for a coalescing kind with a request during the run, starts the next run. */
  finishJob(ref: JobRef): Promise<void>;
  /** Records a failure's code and messages; nothing if the run was superseded meanwhile. */
  failJob(ref: JobRef, failure: { code: string; messages: JobErrorMessage[] }): Promise<void>;
  /** `organizationId` and `graceSeconds` narrow a run (tests, a targeted repair). */
  reconcileJobs(scope: { organizationId?: string; graceSeconds?: number }): Promise<ReconcileReport>;
  expireJobs(): Promise<Record<string, number>>;
}

function kindOf(ref: JobRef) {
  const kind = jobKindNamed(ref.kind);
  if (!kind) throw new JobError(JOB_FAILURES.failed, `unknown job kind ${ref.kind}`);
  return kind;
}

export function createJobActivities(deps: ActivityDeps): JobActivities {
  const { ds, config, temporal, clock, logger } = deps;
  const finish = async (ref: JobRef, failure: { code: string; messages: JobErrorMessage[] } | null) => {
    const next = await inTransaction(ds, (db) => finishJob(db, kindOf(ref), ref, failure, clock()));
    // A lost start here is repaired by the reconciler, like any other.
    if (next) await startJob(temporal, ds.manager, next);
  };
  return permanentFailures<JobActivities>({
    beginJob: (ref) => inTransaction(ds, (db) => markJobStarted(db, kindOf(ref), ref, clock())),
    reportJobProgress: (ref, done, total) => inTransaction(ds, (db) => reportJobProgress(db, kindOf(ref), ref, done, total)),
    finishJob: (ref) => finish(ref, null),
    failJob: async (ref, failure) => {
      try {
        await finish(ref, failure);
      } catch (err) {
        if (!(err instanceof JobError && err.code === JOB_FAILURES.superseded)) throw err;
      }
    },
    reconcileJobs: (scope) => reconcileJobs(temporal, ds.manager, { graceSeconds: config.jobs.reconcileIntervalSeconds, ...scope, logger }),
    expireJobs: () => expireJobs(ds.manager, config, deps.blobs, clock()),
  });
}
