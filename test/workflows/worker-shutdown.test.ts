/**
 * A worker that goes away cleanly: SIGTERM to one of two workers while it stages a batch
 * of an import. It stops polling (its /readyz turns 503, its /healthz stays 200), finishes the batch it
 * runs, exits 0, and the other worker completes the import: every step ran once, none was retried. The
 * workers run as child processes from `dist/` (built by `npm test`), on a private task queue.
 */
import type { Client } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { importRunStatus } from '../../domain/imports/runs';
import { ImportRun } from '../../entities/ImportRun';
import { Revision } from '../../entities/Revision';
import { heavyTaskQueueOf, loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { TemporalGateway } from '../../platform/temporal/gateway';
import { unique } from '../factories';
import { importWebsite } from '../support/import-fixtures';
import { SECTIONS, startWebsite, Website } from '../support/website';
import { freePort, polling, WorkerProcesses } from '../support/worker-process';

const taskQueue = unique('test-shutdown-');
const config = { ...loadConfig(), temporal: { ...loadConfig().temporal, taskQueue } };
const PAGES = 40;

let ds: DataSource;
let temporal: TemporalGateway;
let site: Website;
const workers = new WorkerProcesses({
  TEMPORAL_TASK_QUEUE: taskQueue,
  FETCH_ALLOW_LOOPBACK: 'true',
  IMPORT_BATCH_PAGES: '10',
  IMPORT_CONCURRENCY: '2',
  METRICS_HOST: '127.0.0.1',
});

jest.setTimeout(90_000);

beforeAll(async () => {
  ds = await createDataSource(config).initialize();
  temporal = new TemporalGateway(config);
  // a batch of 10 pages, 2 at a time, 300 ms each: about 1.5 s, long enough to be caught under way
  site = await startWebsite({ pages: PAGES, delayMs: 300 });
});

afterAll(async () => {
  workers.killAll();
  await site?.close();
  await temporal?.close();
  await ds?.destroy();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (const start = Date.now(); Date.now() - start < 60_000; await new Promise((r) => setTimeout(r, 50))) {
    const value = await read();
    if (done(value)) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The status a worker's probe answers, null when nothing listens. */
const probe = (port: number, path: string) =>
  fetch(`http://127.0.0.1:${port}${path}`).then(
    (res) => res.status,
    () => null,
  );

interface BatchRun {
  activityId: string;
  taskQueue: string;
  identity: string;
  attempt: number;
  completedAt: number | null;
}

/** The import's staging batches from its history: who ran each, which attempt, when it completed. */
async function batches(client: Client, workflowId: string): Promise<BatchRun[]> {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  const byScheduled = new Map<string, BatchRun>();
  for (const event of events ?? []) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name === 'stageImportBatch')
      byScheduled.set(String(event.eventId), {
        activityId: scheduled.activityId!,
        taskQueue: scheduled.taskQueue?.name ?? '',
        identity: '',
        attempt: 0,
        completedAt: null,
      });
    const started = event.activityTaskStartedEventAttributes;
    const batch = byScheduled.get(String(started?.scheduledEventId));
    if (started && batch) Object.assign(batch, { identity: started.identity, attempt: started.attempt });
    const completed = byScheduled.get(String(event.activityTaskCompletedEventAttributes?.scheduledEventId));
    if (completed)
      completed.completedAt = Number(event.eventTime?.seconds) * 1000 + (event.eventTime?.nanos ?? 0) / 1e6;
  }
  return [...byScheduled.values()];
}

it('SIGTERM of a worker staging an import: it finishes the batch and exits, the other worker completes the import, no attempt spent', async () => {
  const client = await temporal.getClient();
  const ports = [await freePort(), await freePort()];
  const children = ports.map((port) => workers.start({ WORKER_METRICS_PORT: String(port) }));
  for (const child of children)
    await polling(client, config.temporal.namespace, heavyTaskQueueOf(config.temporal), child.pid!);
  // ready once polling; alive
  for (const port of ports) expect([await probe(port, '/readyz'), await probe(port, '/healthz')]).toEqual([200, 200]);

  const { importRunId, space } = await importWebsite(ds, temporal, site);
  const workflowId = `content-import/${importRunId}/1`;

  // a batch under way: started, a page or two fetched (its heartbeat carries the progress)
  const description = await until(
    () => client.workflow.getHandle(workflowId).describe(),
    (d) =>
      (d.raw.pendingActivities ?? []).some(
        (a) => a.activityType?.name === 'stageImportBatch' && a.state === 2 && a.heartbeatDetails?.payloads?.length,
      ),
    'a batch under way',
  );
  const running = description.raw.pendingActivities!.find((a) => a.activityType?.name === 'stageImportBatch')!;
  const index = children.findIndex((c) => running.lastWorkerIdentity?.startsWith(`${c.pid}@`));
  const [stopped, other] = [children[index], children[1 - index]];
  const exited = new Promise<number | null>((resolve) => stopped.once('exit', (code) => resolve(code)));
  const sentAt = Date.now();
  stopped.kill('SIGTERM');
  // draining: not ready, still alive
  await until(
    () => probe(ports[index], '/readyz'),
    (status) => status === 503,
    'the stopped worker not ready',
  );
  expect(await probe(ports[index], '/healthz')).toBe(200);
  expect(await exited).toBe(0);
  const exitedAt = Date.now();

  const done = await until(
    () => ds.manager.findOneByOrFail(ImportRun, { id: importRunId }),
    (r) => r.process.finishedAt !== null,
    'the import to finish',
  );
  expect(importRunStatus(done)).toBe('completed');
  expect(done.importedResources).toBe(1 + SECTIONS + PAGES);
  expect(await ds.manager.countBy(Revision, { spaceId: space.id, type: 'import' })).toBe(1);

  const runs = await batches(client, workflowId);
  // staged on the heavy queue
  expect(new Set(runs.map((b) => b.taskQueue))).toEqual(new Set([heavyTaskQueueOf(config.temporal)]));
  // the batch under way at SIGTERM finished on its worker after the signal, at its first attempt
  const interrupted = runs.find((b) => b.activityId === running.activityId)!;
  expect(interrupted.identity).toBe(running.lastWorkerIdentity);
  expect(interrupted.completedAt).toBeGreaterThan(sentAt);
  // the other worker staged what followed
  expect(
    runs.filter((b) => b.identity.startsWith(`${other.pid}@`) && b.completedAt! > exitedAt).length,
  ).toBeGreaterThan(0);
  // no step of the run was attempted twice
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  const attempts = (events ?? []).flatMap((e) =>
    e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt] : [],
  );
  expect(attempts.length).toBeGreaterThan(runs.length);
  expect(attempts.filter((a) => a !== 1)).toEqual([]);
  // biome-ignore lint/suspicious/noConsole: the measured figures, for the record
  console.info(
    `SIGTERM mid-batch: the worker exited 0 ${exitedAt - sentAt} ms after the signal; ${runs.length} batches, ` +
      `${runs.filter((b) => b.identity === running.lastWorkerIdentity).length} on the stopped worker; every step at attempt 1`,
  );
});
