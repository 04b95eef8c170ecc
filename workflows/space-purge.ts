/**
 * space-purge/<spaceId>/<generation>: waits out the retention of a deleted space, then removes
 * everything under it in idempotent batches, and its finish removes the space row. A restore withdraws
 * the job (a new generation) and cancels this run; its activities also re-check the row's generation
 * (SUPERSEDED), so a missed cancel can never purge a restored space, and a deletion after the restore
 * is a new run this one cannot touch. It runs through runJob like every job.
 *
 * Older runs keep their branch: runs without the patch `purge-runs-job` (releases v2 and v3, started
 * before it) check and purge by space id, count their metrics in their activities and end by removing
 * the row in their last batch; runs of release v1 (`space-purge/<spaceId>`) have no `run` in their input:
 * they keep their original retry policy and record nothing on the row.
 * Since v5 (patch `jobs-continue-as-new`) a run whose history reached JOB_HISTORY_MAX_EVENTS continues as new
 * before its next batch.
 */

import type { ActivityOptions } from '@temporalio/workflow';
import { CancellationScope, isCancellation, patched, proxyActivities, sleep } from '@temporalio/workflow';
import type { SpaceActivities } from '../activities/spaces';
import type { JobOutcome, JobRun, SpacePurgeInput, SpacePurgeResult } from '../domain/jobs/contracts';
import {
  continueJob,
  heartbeatingActivityOptions,
  historyBound,
  jobActivityOptions,
  recordJobFailure,
  runJob,
} from './job';

const V1_RETRY = {
  initialInterval: '1 second',
  maximumInterval: '1 minute',
  backoffCoefficient: 2,
  maximumAttempts: 10,
} as const;

function options(run: JobRun | undefined, startToCloseTimeout: '30 seconds' | '2 minutes'): ActivityOptions {
  return run ? jobActivityOptions(run, startToCloseTimeout) : { startToCloseTimeout, retry: V1_RETRY };
}

export async function spacePurge(input: SpacePurgeInput): Promise<SpacePurgeResult> {
  if (input.run && patched('purge-runs-job')) return purgeJob(input, input.run);
  const { checkSpacePurge } = proxyActivities<SpaceActivities>(options(input.run, '30 seconds'));
  // a batch heartbeats per table and reclaim step, so a dead worker's batch is retried before 2 minutes
  const { purgeSpaceBatch } = proxyActivities<SpaceActivities>(
    input.run ? heartbeatingActivityOptions(input.run, '2 minutes') : options(input.run, '2 minutes'),
  );
  const generation = input.run?.generation;
  try {
    for (;;) {
      const status = await checkSpacePurge(input.spaceId, generation);
      if (status.state === 'restored' || status.state === 'gone' || status.state === 'superseded') return status.state;
      if (status.state === 'due') break;
      await sleep(status.waitMs);
    }
    // Once due, a restore is no longer possible: finish the purge even if a cancel arrives.
    return await CancellationScope.nonCancellable(async () => {
      for (;;) {
        const batch = await purgeSpaceBatch(input.spaceId, generation);
        if (batch.state === 'restored' || batch.state === 'superseded') return batch.state;
        if (batch.state === 'purged') return 'purged';
      }
    });
  } catch (err) {
    if (isCancellation(err)) return 'restored';
    if (input.run) await recordJobFailure(input.run, err);
    throw err;
  }
}

async function purgeJob(input: SpacePurgeInput, run: JobRun): Promise<JobOutcome<'purged'>> {
  const { spacePurgeWait } = proxyActivities<SpaceActivities>(jobActivityOptions(run, '30 seconds'));
  // a batch heartbeats per table and reclaim step, so a dead worker's batch is retried before 2 minutes
  const { purgeSpaceJobBatch } = proxyActivities<SpaceActivities>(heartbeatingActivityOptions(run, '2 minutes'));
  const history = historyBound(run, patched('jobs-continue-as-new'));
  return runJob(
    run,
    async () => {
      if (!input.continued)
        for (let waitMs = await spacePurgeWait(run); waitMs > 0; waitMs = await spacePurgeWait(run))
          await sleep(waitMs);
      // Once due, a restore is no longer possible: finish the purge even if a cancel arrives.
      return CancellationScope.nonCancellable(async () => {
        for (
          let batches = input.continued?.batches ?? 0, batch: 'more' | 'done' = 'more';
          batch === 'more';
          batches++
        ) {
          if (history.due()) await continueJob(spacePurge, { ...input, continued: { batches } });
          batch = await purgeSpaceJobBatch(run);
        }
        return 'purged' as const;
      });
    },
    !!input.continued,
  );
}
