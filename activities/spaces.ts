/** Space activities: thin wrappers over domain/spaces, built from the activities' dependencies. */
import { inTransaction } from '../domain/db';
import type { Liveness } from '../domain/processes/liveness';
import { checkPurge, PurgeBatch, PurgeCheck, purgeBatch } from '../domain/spaces/purge';
import { spacePurgeJob } from '../domain/spaces/purge-job';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import { permanentFailures } from './job-activity';

export interface SpaceActivities {
  /** `generation` is absent for runs started before the job machinery (release v1). */
  checkSpacePurge(spaceId: string, generation?: number): Promise<PurgeCheck>;
  purgeSpaceBatch(spaceId: string, generation?: number): Promise<PurgeBatch>;
}

export function createSpaceActivities(deps: ActivityDeps): SpaceActivities {
  const { ds, config, clock, blobs, metrics } = deps;
  const purgeSpaceBatch = async (spaceId: string, generation: number | undefined, live: Liveness) => {
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
          live,
        ),
      };
    });
    if (batch.state === 'purged' && deletedAt)
      metrics.jobFinished(
        spacePurgeJob.name,
        null,
        new Date(deletedAt.getTime() + config.spaceRetentionSeconds * 1000),
        clock(),
      );
    return batch;
  };
  // The purge predates runJob: its work starts once due, and it ends by removing its own row. Whether
  // it is due is the database clock's to say (the worker's clock only times the metrics).
  return permanentFailures<SpaceActivities>({
    checkSpacePurge: async (spaceId, generation) => {
      const check = await inTransaction(ds, (db) =>
        checkPurge(db, spaceId, config.spaceRetentionSeconds, generation ?? null),
      );
      if (check.state === 'due') metrics.jobStarted(spacePurgeJob.name);
      return check;
    },
    purgeSpaceBatch: (spaceId, generation) => heartbeating((live) => purgeSpaceBatch(spaceId, generation, live)),
  });
}
