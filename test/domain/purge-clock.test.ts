/**
 * Whether a deleted space is due for its purge (the worker decides) and whether it can still
 * be restored (the API decides) both follow the database's clock, so a skewed worker or API clock can
 * neither purge a space early nor refuse a restore the other side would allow.
 */
import type { DataSource } from 'typeorm';
import { ActivityDeps, createActivityDeps } from '../../activities/deps';
import { createSpaceActivities, SpaceActivities } from '../../activities/spaces';
import { jobRef } from '../../domain/jobs/job-kind';
import { lockSpace, restoreSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { Space } from '../../entities/Space';
import { loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { databaseNow, inTransaction } from '../../platform/db/transactions';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { heldBack } from '../support/held-back';

const RETENTION_SECONDS = 3600;
const HOUR = 3600 * 1000;
const config = { ...loadConfig(), spaceRetentionSeconds: RETENTION_SECONDS };
let ds: DataSource;
const opened: ActivityDeps[] = [];

beforeAll(async () => {
  ds = await createDataSource(config).initialize();
});

afterAll(async () => {
  for (const deps of opened) {
    await deps.fetch.close();
    await deps.temporal.close();
  }
  await ds?.destroy();
});

afterEach(() => jest.useRealTimers());

/** The purge activities of a worker whose clock is `skewMs` off. */
function workerSkewedBy(skewMs: number): SpaceActivities {
  const deps = createActivityDeps({ ds, config }, { clock: () => new Date(Date.now() + skewMs) });
  opened.push(deps);
  return createSpaceActivities(deps);
}

/** A space deleted (its purge asked for) so that, by the database's clock, it is due in `dueInMs`. */
async function deletedSpace(dueInMs: number): Promise<Space> {
  const { org } = await createOrg(ds);
  const space = await insertSpace(ds, org);
  await inTransaction(heldBack(ds), async (db) => softDeleteSpace(db, await lockSpace(db, space.id)));
  const deletedAt = new Date((await databaseNow(ds.manager)).getTime() - RETENTION_SECONDS * 1000 + dueInMs);
  await ds.manager.update(Space, { id: space.id }, { deletedAt });
  return ds.manager.findOneByOrFail(Space, { id: space.id });
}

const restore = (spaceId: string) =>
  inTransaction(heldBack(ds), async (db) => restoreSpace(db, await lockSpace(db, spaceId), RETENTION_SECONDS));

describe('purge and restore follow the database clock', () => {
  it('a worker clock an hour ahead does not make a space due early; one an hour behind does not delay it', async () => {
    const notYet = await deletedSpace(2 * 60 * 1000);
    const waitMs = await workerSkewedBy(HOUR).spacePurgeWait(jobRef(spacePurgeJob, notYet));
    expect(waitMs).toBeGreaterThan(60 * 1000);
    expect(waitMs).toBeLessThanOrEqual(2 * 60 * 1000);

    const past = await deletedSpace(-60 * 1000);
    expect(await workerSkewedBy(-HOUR).spacePurgeWait(jobRef(spacePurgeJob, past))).toBe(0);
  });

  it('an API clock an hour behind cannot restore a space that is due; one an hour ahead still restores one that is not', async () => {
    const past = await deletedSpace(-60 * 1000);
    const notYet = await deletedSpace(2 * 60 * 1000);
    // only Date is faked: the database driver's timers keep running
    const timers = ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate'] as const;
    const moreTimers = ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] as const;
    jest.useFakeTimers({ now: Date.now() - HOUR, doNotFake: [...timers, ...moreTimers] });
    await expect(restore(past.id)).rejects.toMatchObject({ status: 404 });
    jest.setSystemTime(Date.now() + 2 * HOUR);
    const restored = await restore(notYet.id);
    expect(restored.row.deletedAt).toBeNull();
    expect(restored.superseded).toBe(notYet.purge.generation);
  });
});
