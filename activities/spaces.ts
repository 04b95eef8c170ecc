/** Space activities: thin wrappers over domain/spaces, built from the activities' dependencies. */
import { inTransaction } from '../domain/db';
import { checkPurge, PurgeBatch, PurgeCheck, purgeBatch } from '../domain/spaces/purge';
import { spacePurgeJob } from '../domain/spaces/purge-job';
import type { ActivityDeps } from './deps';
import { permanentFailures } from './job-activity';

export interface SpaceActivities {
  /** `generation` is absent for runs started before the job machinery (release v1). */
  checkSpacePurge(spaceId: string, generation?: number): Promise<PurgeCheck>;
  purgeSpaceBatch(spaceId: string, generation?: number): Promise<PurgeBatch>;
}

export function createSpaceActivities(deps: ActivityDeps): SpaceActivities {
  const { ds, config, clock, blobs, metrics } = deps;
  // The purge predates runJob: its work starts once due, and it ends by removing its own row.
  return permanentFailures<SpaceActivities>({
    checkSpacePurge: async (spaceId, generation) => {
      const check = await inTransaction(ds, (db) =>
        checkPurge(db, spaceId, config.spaceRetentionSeconds, generation ?? null, clock()),
      );
      if (check.state === 'due') metrics.jobStarted(spacePurgeJob.name);
      return check;
    },
    purgeSpaceBatch: async (spaceId, generation) => {
      const now = clock();
      const { batch, deletedAt } = await inTransaction(ds, async (db) => {
        // read first: once purged the row is gone, and the work began when its retention ended
        const rows: Array<{ deletedAt: Date | null }> = await db.query('SELECT deletedAt FROM spaces WHERE id = ?', [
          spaceId,
        ]);
        return {
          deletedAt: rows[0]?.deletedAt ?? null,
          batch: await purgeBatch(
            db,
            blobs,
            spaceId,
            config.purgeBatchSize,
            config.spaceRetentionSeconds,
            generation ?? null,
            now,
          ),
        };
      });
      if (batch.state === 'purged' && deletedAt)
        metrics.jobFinished(
          spacePurgeJob.name,
          null,
          new Date(deletedAt.getTime() + config.spaceRetentionSeconds * 1000),
          now,
        );
      return batch;
    },
  });
}
