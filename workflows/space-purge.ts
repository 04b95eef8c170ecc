/**
 * space-purge/<spaceId>: waits out the retention of a deleted space, then removes it and everything
 * under it in idempotent batches. A restore cancels it; the activities also re-check the row, so a
 * missed cancel can never purge a restored space.
 */
import { CancellationScope, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { SpaceActivities } from '../activities/spaces';

export interface SpacePurgeInput {
  spaceId: string;
  organizationId: string;
}

export type SpacePurgeResult = 'purged' | 'restored' | 'gone';

const { checkSpacePurge } = proxyActivities<SpaceActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2 },
});

const { purgeSpaceBatch } = proxyActivities<SpaceActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2 },
});

export async function spacePurge(input: SpacePurgeInput): Promise<SpacePurgeResult> {
  try {
    for (;;) {
      const status = await checkSpacePurge(input.spaceId);
      if (status.state === 'restored' || status.state === 'gone') return status.state;
      if (status.state === 'due') break;
      await sleep(status.waitMs);
    }
  } catch (err) {
    if (isCancellation(err)) return 'restored';
    throw err;
  }
  // Once due, a restore is no longer possible: finish the purge even if a cancel arrives.
  return CancellationScope.nonCancellable(async () => {
    for (;;) {
      const batch = await purgeSpaceBatch(input.spaceId);
      if (batch.state === 'restored') return 'restored';
      if (batch.state === 'purged') return 'purged';
    }
  });
}
