/**
 * The jobs gauge's counts (domain/metrics/jobs.ts): pending, running and failed in the last hour, by kind, from
 * the rows. The counts span every organization, so the test reads them in one REPEATABLE READ transaction: its
 * snapshot plus its own changes, whatever other tests commit meanwhile; it rolls back.
 */
import { Registry } from 'prom-client';
import { jobRef } from '../../domain/jobs/job-kind';
import { markJobStarted, recordJobEnd } from '../../domain/jobs/job-lifecycle';
import { JOB_KINDS } from '../../domain/jobs/kinds';
import { countJobs, type JobCount, registerJobsGauge } from '../../domain/metrics/jobs';
import { lockSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { createDataSource } from '../../platform/db/data-source';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { heldBackTx } from '../support/held-back';
import { sample } from '../support/metrics';
import { useServer } from '../support/server';

const server = useServer();

const ROLLBACK = new Error('rollback');
const HOUR = 3600_000;

const byKey = (counts: JobCount[]) => new Map(counts.map((c) => [`${c.kind} ${c.status}`, c.count]));

describe('the jobs gauge', () => {
  it('counts jobs by kind: pending, running, and failed within the last hour; every kind and status, zeros included', async () => {
    const { org } = await createOrg(server.ds);
    const spaces = await Promise.all([1, 2, 3, 4, 5, 6].map(() => insertSpace(server.ds, org)));
    const now = new Date();
    const transaction = server.ds.transaction('REPEATABLE READ', async (raw) => {
      const db = heldBackTx(raw);
      const before = await countJobs(db, now);
      expect(before).toHaveLength(JOB_KINDS.length * 3);
      expect(new Set(before.map((c) => c.status))).toEqual(new Set(['pending', 'running', 'failed_last_hour']));

      const refs = [];
      for (const space of spaces)
        refs.push(jobRef(spacePurgeJob, (await softDeleteSpace(db, await lockSpace(db, space.id))).row));
      const [, , running, failedNow, failedEarlier, succeeded] = refs; // the first two stay pending
      for (const ref of [running, failedNow, failedEarlier, succeeded]) await markJobStarted(db, spacePurgeJob, ref);
      const failure = { code: 'JOB_FAILED', messages: [{ message: 'boom' }] };
      await recordJobEnd(db, spacePurgeJob, failedNow, failure, new Date(now.getTime() - 60_000));
      await recordJobEnd(db, spacePurgeJob, failedEarlier, failure, new Date(now.getTime() - 2 * HOUR));
      await recordJobEnd(db, spacePurgeJob, succeeded, null, now);

      const after = byKey(await countJobs(db, now));
      const delta = [...byKey(before)].filter(([key, count]) => after.get(key) !== count);
      expect(Object.fromEntries(delta.map(([key, count]) => [key, after.get(key)! - count]))).toEqual({
        'space-purge pending': 2,
        'space-purge running': 1,
        'space-purge failed_last_hour': 1,
      });
      throw ROLLBACK;
    });
    await expect(transaction).rejects.toBe(ROLLBACK);
  });

  it('a scrape waits for the counts a bounded time: past it the gauge has no samples, and the next has them again', async () => {
    // a pool of one connection, held by the test: the counts wait for it
    const ds = await createDataSource({
      ...server.config,
      mysql: { ...server.config.mysql, poolSize: 1 },
    }).initialize();
    const registry = new Registry();
    registerJobsGauge(registry, ds, 300);
    const holder = ds.createQueryRunner();
    await holder.connect();
    try {
      const started = Date.now();
      const text = await registry.metrics();
      expect(Date.now() - started).toBeLessThan(2000);
      expect(text).toContain('# TYPE jobs gauge');
      expect(text).not.toMatch(/^jobs\{/m);
    } finally {
      await holder.release();
    }
    // the counting the first scrape started ends once the connection is free
    let pending: number | undefined;
    for (let i = 0; i < 50 && pending === undefined; i++) {
      pending = sample(await registry.metrics(), 'jobs', { kind: 'space-purge', status: 'pending' });
    }
    expect(pending).toBeGreaterThanOrEqual(0);
    await ds.destroy();
  });
});
