/** Space activities: thin wrappers over domain/spaces, built from the activities' dependencies. */

import type { JobRef } from '../domain/jobs/contracts';
import type { Liveness } from '../domain/jobs/liveness';
import { checkPurge, PurgeBatch, PurgeCheck, purgeBatch, purgeJobBatch, purgeWait } from '../domain/spaces/purge';
import { spacePurgeJob } from '../domain/spaces/purge-job';
import { inTransaction } from '../platform/db/transactions';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import { permanentFailures } from './job-activity';

export interface SpaceActivities {
  /** How long the purge still waits, 0 once due; SUPERSEDED once withdrawn. */
  spacePurgeWait(ref: JobRef): Promise<number>;
  /** One batch of a due purge: `done` once everything under the space is gone (its finish removes the row). */
  purgeSpaceJobBatch(ref: JobRef): Promise<'more' | 'done'>;
  /**
   * For runs started before patch `purge-runs-job`, which do not run through runJob. `generation` is absent
   * for runs started before the job machinery (release v1).
   */
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
  // Whether a purge is due is the database clock's to say. Runs started before patch `purge-runs-job` count
  // their metrics here: their work starts once due, and ends by removing its own row.
  return permanentFailures<SpaceActivities>({
    spacePurgeWait: (ref) => inTransaction(ds, (db) => purgeWait(db, ref, config.spaceRetentionSeconds)),
    purgeSpaceJobBatch: (ref) =>
      heartbeating((live) =>
        inTransaction(ds, (db) =>
          purgeJobBatch(db, blobs, ref, config.purgeBatchSize, config.spaceRetentionSeconds, live),
        ),
      ),
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
