/** Space activities, built by a factory that receives their dependencies. */
import type { DataSource } from 'typeorm';
import type { Config } from '../domain/config';
import { checkPurge, PurgeBatch, PurgeCheck, purgeBatch } from '../domain/spaces/purge';

export interface SpaceActivities {
  checkSpacePurge(spaceId: string): Promise<PurgeCheck>;
  purgeSpaceBatch(spaceId: string): Promise<PurgeBatch>;
}

export function createSpaceActivities(deps: { ds: DataSource; config: Config }): SpaceActivities {
  const { ds, config } = deps;
  return {
    checkSpacePurge: (spaceId) => checkPurge(ds.manager, spaceId, config.spaceRetentionSeconds),
    purgeSpaceBatch: (spaceId) => ds.transaction((db) => purgeBatch(db, spaceId, config.purgeBatchSize, config.spaceRetentionSeconds)),
  };
}
