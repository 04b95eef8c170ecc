/** expireJobs: run by the `expire-jobs` Schedule, it removes the job rows and outputs whose retention passed. */
import { proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../activities/jobs';

const { expireJobs: expire } = proxyActivities<JobActivities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 5 },
});

export async function expireJobs(): Promise<Record<string, number>> {
  return expire();
}
