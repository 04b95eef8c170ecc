/**
 * The content-import workflow survives its worker: `kill -9` of the worker process mid-import, then a
 * new worker, and the import completes with exactly one revision (the batch under way is retried
 * from the last saved state once its heartbeat stops). The worker runs as a child process from
 * `dist/` (built by `npm test`), on a private task queue, without Schedules.
 */
import type { DataSource } from 'typeorm';
import { importRunStatus } from '../../domain/imports/runs';
import { ImportRun } from '../../entities/ImportRun';
import { Revision } from '../../entities/Revision';
import { loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { TemporalGateway } from '../../platform/temporal/gateway';
import { unique } from '../factories';
import { importWebsite } from '../support/import-fixtures';
import { SECTIONS, startWebsite, Website } from '../support/website';
import { WorkerProcesses } from '../support/worker-process';

const taskQueue = unique('test-import-');
const config = { ...loadConfig(), temporal: { ...loadConfig().temporal, taskQueue } };

let ds: DataSource;
let temporal: TemporalGateway;
let site: Website;
const workers = new WorkerProcesses({
  TEMPORAL_TASK_QUEUE: taskQueue,
  FETCH_ALLOW_LOOPBACK: 'true',
  IMPORT_BATCH_PAGES: '10',
  IMPORT_CONCURRENCY: '2',
});

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 60000,
): Promise<T> {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await new Promise((r) => setTimeout(r, 100))) {
    const value = await read();
    if (done(value)) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  ds = await createDataSource(config).initialize();
  temporal = new TemporalGateway(config);
  site = await startWebsite({ pages: 60, delayMs: 60 });
});

afterAll(async () => {
  workers.killAll();
  await site?.close();
  await temporal?.close();
  await ds?.destroy();
});

it('kill -9 of the worker mid-import, then a new worker: the import completes with exactly one revision', async () => {
  const { importRunId, space } = await importWebsite(ds, temporal, site);
  const row = () => ds.manager.findOneByOrFail(ImportRun, { id: importRunId });

  const first = workers.start();
  const midway = await until(row, (r) => r.process.progressDone > 0, 'the first batches');
  expect(midway.revisionId).toBeNull();
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  const servedAtKill = site.served();

  workers.start();
  const done = await until(row, (r) => r.process.finishedAt !== null, 'the import to finish');
  expect(importRunStatus(done)).toBe('completed');
  expect(done.importedResources).toBe(1 + SECTIONS + 60);
  expect(site.served()).toBeGreaterThan(servedAtKill); // the second worker fetched the rest
  const revisions = await ds.manager.findBy(Revision, { spaceId: space.id, type: 'import' });
  expect(revisions.map((r) => r.id)).toEqual([done.revisionId]);
}, 120000);
