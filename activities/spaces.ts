/** Space activities: thin wrappers over domain/spaces, built from the activities' dependencies. */
import { inTransaction } from '../domain/db';
import { checkPurge, PurgeBatch, PurgeCheck, purgeBatch } from '../domain/spaces/purge';
import type { ActivityDeps } from './deps';
import { permanentFailures } from './job-activity';

export interface SpaceActivities {
  /** `generation` is absent for runs started before the job machinery (release v1). */
  checkSpacePurge(spaceId: string, generation?: number): Promise<PurgeCheck>;
  purgeSpaceBatch(spaceId: string, generation?: number): Promise<PurgeBatch>;
}

export function createSpaceActivities(deps: ActivityDeps): SpaceActivities {
  const { ds, config, clock, blobs } = deps;
  return permanentFailures<SpaceActivities>({
    checkSpacePurge: (spaceId, generation) => inTransaction(ds, (db) => checkPurge(db, spaceId, config.spaceRetentionSeconds, generation ?? null, clock())),
    purgeSpaceBatch: (spaceId, generation) =>
      inTransaction(ds, (db) => purgeBatch(db, blobs, spaceId, config.purgeBatchSize, config.spaceRetentionSeconds, generation ?? null, clock())),
  });
}
