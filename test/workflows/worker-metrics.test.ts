/**
 * The worker's GET /metrics, from the worker process as deployed (dist/worker/main.js on a private
 * task queue): jobs started, completed and failed by kind with their durations, the jobs gauge, its
 * MySQL pool, and the Temporal SDK's own metrics, every sample with its service label. A retried begin
 * or finish is counted once. Its logs, the Temporal SDK's records included, are JSON lines.
 */

import { LogTimestamp } from '@temporalio/worker';
import { ChildProcess, spawn } from 'child_process';
import { createServer } from 'net';
import * as path from 'path';
import pino from 'pino';
import { createActivityDeps } from '../../activities/deps';
import { createJobActivities } from '../../activities/jobs';
import { jobRef } from '../../domain/jobs/job-kind';
import { applyJobTicket } from '../../domain/jobs/job-start';
import { JOB_KINDS } from '../../domain/jobs/kinds';
import { lockSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { Space } from '../../entities/Space';
import { loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { temporalLogger } from '../../worker/runtime';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { heldBack } from '../support/held-back';
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
  return inTransaction(heldBack(server.ds), async (db) => softDeleteSpace(db, await lockSpace(db, space.id)));
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
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    worker.stdout?.on('data', (d) => (output += d));
    worker.stderr?.on('data', (d) => (output += d));
    const url = `http://127.0.0.1:${port}/metrics`;
    await until(() => scrapeUrl(url).then((r) => r.status === 200), 'the worker metrics');

    const ticket = await deletedSpace();
    await applyJobTicket(server.temporal, server.ds.manager, ticket, pino({ level: 'silent' }));
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

    // every sample names its service, the SDK's too
    const samples = text.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(samples.filter((line) => !line.includes('service="worker"'))).toEqual([]);
    // counters of every kind from the start, zeros included, so that rate() and increase() see their first run
    for (const kind of JOB_KINDS.map((k) => k.name)) {
      expect(sample(text, 'jobs_started_total', { kind })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'jobs_failed_total', { kind, code: 'JOB_FAILED' })).toBeGreaterThanOrEqual(0);
      for (const status of ['pending', 'running', 'failed_last_hour'])
        expect(sample(text, 'jobs', { kind, status })).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, 'jobs_completed_total', { kind: 'pdf-export' })).toBe(0);

    // its logs: one JSON line per record, the SDK's records (its worker's state changes) included, no webpack report
    const lines = output.split('\n').filter(Boolean);
    expect(lines.filter((line) => !/^\{.*\}$/.test(line))).toEqual([]);
    const records = lines.map((line) => JSON.parse(line));
    expect(records).toContainEqual(expect.objectContaining({ sdkComponent: 'worker', msg: 'Worker state changed' }));
    expect(output).not.toMatch(/webpack|modules by path/);
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

describe('the Temporal runtime logger (worker/runtime.ts)', () => {
  it('writes each SDK record as one JSON line at its level, without task tokens, an error under err', () => {
    const lines: string[] = [];
    const logger = temporalLogger(pino({ level: 'info' }, { write: (line: string) => lines.push(line) }));
    const error = new Error('the database refused');
    logger.warn('Activity failed', {
      sdkComponent: 'worker',
      taskToken: 'CiQwMWEyMWI0NC03',
      activityType: 'beginJob',
      error,
    });
    logger.log('WARN', 'Activity not found on completion', {
      sdkComponent: 'core',
      task_token: 'TaskToken(CiQwMWEyMWI0NC03)',
      [LogTimestamp]: 1n,
    });
    logger.debug('below the level', {});

    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^\{[^\n]*\}\n$/);
    expect(lines.join('')).not.toContain('CiQwMWEyMWI0NC03');
    const [failed, notFound] = lines.map((line) => JSON.parse(line));
    expect(failed).toMatchObject({
      level: 40,
      msg: 'Activity failed',
      sdkComponent: 'worker',
      activityType: 'beginJob',
    });
    expect(failed.err).toMatchObject({
      type: 'Error',
      message: 'the database refused',
      stack: expect.stringContaining('Error: the database refused\n'),
    });
    expect(notFound).toMatchObject({ level: 40, msg: 'Activity not found on completion', sdkComponent: 'core' });
  });
});
