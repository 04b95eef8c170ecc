/**
 * reconcileJobs: run by the `reconcile-jobs` Schedule (one place, however many workers), it starts
 * every job run whose start a crash between a request's commit and its start lost, and repairs every
 * job whose run closed without recording its end (domain/jobs/job-repair.ts).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../activities/jobs';
import type { ReconcileJobsInput, ReconcileJobsResult } from '../domain/jobs/contracts';

const { reconcileJobs: reconcile } = proxyActivities<JobActivities>({
  startToCloseTimeout: '5 minutes',
  // The next scheduled pass retries anyway.
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

export async function reconcileJobs(input: ReconcileJobsInput = {}): Promise<ReconcileJobsResult> {
  return reconcile(input);
}
