/**
 * The worker's GET /metrics, from the worker process as deployed (dist/worker/main.js on a private
 * task queue): jobs started, completed and failed by kind with their durations, its MySQL pool, and
 * the Temporal SDK's own metrics. A retried begin or finish is counted once.
 */
import { ChildProcess, spawn } from 'child_process';
import { createServer } from 'net';
import * as path from 'path';
import pino from 'pino';
import { createActivityDeps } from '../../activities/deps';
import { createJobActivities } from '../../activities/jobs';
import { loadConfig } from '../../domain/config';
import { inTransaction } from '../../domain/db';
import { jobRef } from '../../domain/processes/job-kind';
import { dispatchJob } from '../../domain/processes/jobs';
import { lockSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { Space } from '../../entities/Space';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { sample, scrapeUrl } from '../support/metrics';
import { useServer } from '../support/server';
import { privateTaskQueue } from '../support/temporal';

const server = useServer(privateTaskQueue(loadConfig()));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, what: string, tries = 300): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await probe().catch(() => null);
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const deletedSpace = async () => {
  const { org } = await createOrg(server.ds);
  const space = await insertSpace(server.ds, org);
  return inTransaction(server.ds, async (db) => softDeleteSpace(db, await lockSpace(db, space.id)));
};

describe('the worker process', () => {
  let worker: ChildProcess | undefined;
  afterAll(() => {
    worker?.kill('SIGTERM');
  });

  it('serves the job counters, its pool and the Temporal SDK metrics at /metrics on its own port', async () => {
    const [port, sdkPort] = [await freePort(), await freePort()];
    worker = spawn(
      process.execPath,
      [path.join(__dirname, '..', '..', 'dist', 'worker', 'main.js'), '--no-schedules'],
      {
        env: {
          ...process.env,
          TEMPORAL_TASK_QUEUE: server.config.temporal.taskQueue,
          WORKER_METRICS_PORT: String(port),
          TEMPORAL_METRICS_PORT: String(sdkPort),
          SPACE_RETENTION_SECONDS: '1',
          LOG_LEVEL: 'warn',
        },
        stdio: 'ignore',
      },
    );
    const url = `http://127.0.0.1:${port}/metrics`;
    await until(() => scrapeUrl(url).then((r) => r.status === 200), 'the worker metrics');

    const ticket = await deletedSpace();
    await dispatchJob(server.temporal, server.ds.manager, ticket, pino({ level: 'silent' }));
    await until(async () => !(await server.ds.manager.findOneBy(Space, { id: ticket.row.id })), 'the purge');

    const text = await until(async () => {
      const { text } = await scrapeUrl(url);
      // the workflow completes after its last activity counted the purge
      const completed = sample(text, 'jobs_completed_total', { kind: 'space-purge' }) === 1;
      return (
        completed &&
        (sample(text, 'temporal_workflow_completed_total', { task_queue: server.config.temporal.taskQueue }) ?? 0) >=
          1 &&
        text
      );
    }, 'the completed purge in the metrics');
    expect(sample(text, 'jobs_started_total', { kind: 'space-purge', service: 'worker' })).toBe(1);
    expect(sample(text, 'job_duration_seconds_count', { kind: 'space-purge', outcome: 'succeeded' })).toBe(1);
    expect(
      sample(text, 'job_duration_seconds_sum', { kind: 'space-purge', outcome: 'succeeded' }),
    ).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_connections', { state: 'max', service: 'worker' })).toBe(server.config.mysql.poolSize);
    // the SDK's own, from its exporter (the probe above waited for its completed workflow)
    expect(text).toMatch(/^temporal_activity_execution_latency_seconds_bucket\{/m);
  }, 90000);
});

describe('job activities', () => {
  it('count a run once when its begin or finish is retried, and a failure by its code', async () => {
    const deps = createActivityDeps({ ds: server.ds, config: server.config });
    const activities = createJobActivities(deps);
    const ok = jobRef(spacePurgeJob, (await deletedSpace()).row);
    await activities.beginJob(ok);
    await activities.beginJob(ok);
    await activities.finishJob(ok);
    await activities.finishJob(ok);
    const bad = jobRef(spacePurgeJob, (await deletedSpace()).row);
    await activities.beginJob(bad);
    await activities.failJob(bad, { code: 'JOB_FAILED', messages: [{ message: 'boom' }] });

    const text = await deps.metrics.registry.metrics();
    expect(sample(text, 'jobs_started_total', { kind: 'space-purge' })).toBe(2);
    expect(sample(text, 'jobs_completed_total', { kind: 'space-purge' })).toBe(1);
    expect(sample(text, 'jobs_failed_total', { kind: 'space-purge', code: 'JOB_FAILED' })).toBe(1);
    expect(sample(text, 'job_duration_seconds_count', { kind: 'space-purge', outcome: 'succeeded' })).toBe(1);
    expect(sample(text, 'job_duration_seconds_count', { kind: 'space-purge', outcome: 'failed' })).toBe(1);
    await deps.temporal.close();
    await deps.fetch.close();
  });
});
