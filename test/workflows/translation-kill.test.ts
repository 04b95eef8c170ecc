/**
 * A translation run survives its worker: `kill -9` of the worker process mid-run, then a new worker,
 * and the run completes, resuming after the steps already stored, with each page once in the result
 * and one revision written. The worker runs as a child process from `dist/` (built by `npm test`) on a
 * private task queue, without Schedules; the provider is a slow local LibreTranslate.
 */

import { Revision } from '../../entities/Revision';
import { Translation } from '../../entities/Translation';
import { loadConfig } from '../../platform/config';
import { createOrg, unique } from '../factories';
import { FakeProvider } from '../support/fake-translation-provider';
import { startServer, TestServer } from '../support/server';
import { settled, spacePages, spaceWithPages, translationsPath } from '../support/translations';
import { WorkerProcesses } from '../support/worker-process';

const PAGES = 20;

let server: TestServer;
let provider: FakeProvider;
let workers: WorkerProcesses;

beforeAll(async () => {
  provider = await new FakeProvider('libretranslate').start();
  provider.delayMs = 200;
  server = await startServer({
    ...loadConfig(),
    temporal: { ...loadConfig().temporal, taskQueue: unique('test-translation-') },
  });
  workers = new WorkerProcesses({
    MYSQL_DATABASE: server.config.mysql.database,
    TEMPORAL_TASK_QUEUE: server.config.temporal.taskQueue,
    TRANSLATION_PROVIDER: 'libretranslate',
    TRANSLATION_LIBRETRANSLATE_URL: provider.url,
    TRANSLATION_PAGES_PER_STEP: '2',
    TRANSLATION_REQUESTS_PER_SECOND: '0',
  });
}, 60000);

afterAll(async () => {
  workers?.killAll();
  provider?.close();
  await server?.close();
});

it('kill -9 of the worker mid-run, then a new worker: the run completes with every page once', async () => {
  const { org, admin } = await createOrg(server.ds);
  const { space } = await spaceWithPages(server, admin, org.id, PAGES);
  const { id } = (
    await server
      .as(admin.token)
      .post(translationsPath(org.id))
      .send({ language: 'es', source: { space: space.id, language: 'en' } })
      .expect(201)
  ).body;
  const row = () => server.ds.manager.findOneByOrFail(Translation, { id });

  const first = workers.start();
  for (const start = Date.now(); (await row()).run.progressDone < 3; await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() - start > 60000) throw new Error('the first steps did not finish');
  }
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  const atKill = await row();
  expect(atKill.run.finishedAt).toBeNull();
  expect(atKill.runs).toBe(0);
  const sentAtKill = provider.requests.length;

  workers.start();
  const done = await settled(server, admin, org.id, id, { timeoutMs: 90000 });
  expect(done).toMatchObject({
    status: 'completed',
    error: null,
    stats: { runs: 1, latestPages: PAGES, totalPages: PAGES },
  });
  // resumed after the stored steps: of the 10 steps, those done before the kill were not sent again
  expect(provider.requests.length).toBeLessThanOrEqual(PAGES / 2 + 1);
  expect(provider.requests.length).toBeGreaterThan(sentAtKill);

  const source = await spacePages(server, space.id);
  const result = await spacePages(server, done.result.space);
  expect(result.map((p) => [p.id, p.parent, p.slug])).toEqual(source.map((p) => [p.id, p.parent, p.slug]));
  expect(new Set(result.map((p) => p.id)).size).toBe(PAGES);
  expect(result.every((p) => p.markdown.includes('EXPLAINS HOW THE WIDGET WORKS'))).toBe(true);
  const revisions = await server.ds.manager.findBy(Revision, { spaceId: done.result.space });
  expect(revisions.map((r) => r.type).sort()).toEqual(['edits', 'initial']);
}, 150000);
