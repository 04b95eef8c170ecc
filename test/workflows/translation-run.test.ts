/**
 * The translation-run workflow on a real worker whose provider is `libretranslate`, played by a
 * local server (test/support/fake-translation-provider.ts) that the tests hold, slow down or make
 * fail: runs asked for during a run coalesce into one, 429 back-off, a permanent 4xx and a deleted
 * source fail the run with the error on the translation, an outage fails it after every retry and the
 * next run keeps its finished steps, a deletion stops the run and leaves the result space, and
 * `cli jobs watch` follows a run to its end.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import pino from 'pino';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { repairLostRuns } from '../../domain/jobs/job-repair';
import { TRANSLATION_FAILURES } from '../../domain/translations/failures';
import { expireStagedRuns } from '../../domain/translations/retention';
import { planKey } from '../../domain/translations/run-blobs';
import { translationRunJob } from '../../domain/translations/run-job';
import { Translation } from '../../entities/Translation';
import { loadConfig } from '../../platform/config';
import { createBlobStore } from '../../platform/storage';
import { createOrg } from '../factories';
import { FakeProvider, shout } from '../support/fake-translation-provider';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';
import { editPages, settled, spacePages, spaceWithPages, translationsPath } from '../support/translations';

const logger = pino({ level: 'silent' });
const CLI = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');

let server: TestServer;
let worker: TestWorker;
let provider: FakeProvider;

beforeAll(async () => {
  provider = await new FakeProvider('libretranslate').start();
  const base = loadConfig();
  server = await startServer(
    shortJobRetries(
      privateTaskQueue({
        ...base,
        translation: {
          ...base.translation,
          provider: 'libretranslate',
          libretranslate: { url: provider.url, apiKey: '' },
          pagesPerStep: 4,
          requestsPerSecond: 0,
          retry: { attempts: 3, initialMs: 100, maxMs: 2000 },
        },
      }),
    ),
  );
  worker = await startWorker(server.ds, server.config);
}, 120000);

afterAll(async () => {
  provider?.close();
  await worker?.stop();
  await server?.close();
});

beforeEach(() => {
  provider.open();
  provider.scripted.length = 0;
  provider.outage = null;
});

async function translated(pages = 6) {
  const fx = await createOrg(server.ds);
  const { space, pageIds } = await spaceWithPages(server, fx.admin, fx.org.id, pages);
  const start = async () =>
    (
      await server
        .as(fx.admin.token)
        .post(translationsPath(fx.org.id))
        .send({ language: 'de', source: { space: space.id, language: 'en' } })
        .expect(201)
    ).body;
  return { ...fx, space, pageIds, start };
}

const row = (id: string) => server.ds.manager.findOneByOrFail(Translation, { id });

describe('translation-run', () => {
  it('translates through the provider: only text is sent, answers land in place', async () => {
    const { org, admin, space, start } = await translated(3);
    const before = provider.requests.length;
    const { id } = await start();
    const done = await settled(server, admin, org.id, id);
    expect(done).toMatchObject({ status: 'completed', stats: { runs: 1, latestPages: 3, totalPages: 3 } });
    const sent = provider.requests.slice(before).flatMap((r) => r.body.q as string[]);
    expect(sent.join('\n')).not.toMatch(/widget --page|example\.com|variables\.product|echo "Hello/);
    const source = await spacePages(server, space.id);
    const result = await spacePages(server, done.result.space);
    expect(result.map((p) => p.id)).toEqual(source.map((p) => p.id));
    expect(result[0].title).toBe(shout(source[0].title));
    expect(result[0].markdown).toContain('PAGE 0 EXPLAINS HOW THE WIDGET WORKS.');
    expect(result[0].markdown).toContain('`widget --page 0`');
    expect(result[0].markdown).toContain('[THE SETUP GUIDE](https://example.com/setup/0)');
  });

  it('two runs asked for during a run give exactly one more run', async () => {
    const { org, admin, start } = await translated();
    provider.hold();
    const before = provider.requests.length;
    const { id } = await start();
    await provider.received(before + 1);
    const path = translationsPath(org.id, id);
    expect((await server.as(admin.token).get(path).expect(200)).body.status).toBe('running');
    await server.as(admin.token).post(`${path}/run`).expect(204);
    await server.as(admin.token).post(`${path}/run`).expect(204);
    expect((await row(id)).run).toMatchObject({ generation: 1, rerunRequested: true });
    provider.open();
    const done = await settled(server, admin, org.id, id, { runs: 2 });
    expect(done.stats).toMatchObject({ runs: 2, latestPages: 0 });
    await new Promise((r) => setTimeout(r, 1500));
    const after = await row(id);
    expect(after.run).toMatchObject({ generation: 2, rerunRequested: false, errorCode: null });
    expect(after.runs).toBe(2);
    const client = await server.temporal.getClient();
    const third = await client.workflow
      .getHandle(jobWorkflowId(translationRunJob, id, 3))
      .describe()
      .catch(() => null);
    expect(third).toBeNull();
  });

  it('a run terminated in Temporal is repaired: RUN_LOST, then the coalesced request runs', async () => {
    const { org, admin, start } = await translated(2);
    provider.hold();
    const before = provider.requests.length;
    const { id } = await start();
    await provider.received(before + 1);
    const path = translationsPath(org.id, id);
    await server.as(admin.token).post(`${path}/run`).expect(204);
    const client = await server.temporal.getClient();
    await client.workflow.getHandle(jobWorkflowId(translationRunJob, id, 1)).terminate('terminated by the test');
    const repair = () => repairLostRuns(server, { graceSeconds: 0, organizationId: org.id, logger });
    expect(await repair()).toEqual({ repaired: 1, restarted: 1 });
    expect((await row(id)).run).toMatchObject({ generation: 2, rerunRequested: false, errorCode: null });
    provider.open();
    expect(await settled(server, admin, org.id, id)).toMatchObject({ status: 'completed' });
    expect(await repair()).toEqual({ repaired: 0, restarted: 0 });
  });

  it('a lost run with nothing coalesced stays failed with RUN_LOST; the next request runs again', async () => {
    const { org, admin, start } = await translated(2);
    provider.hold();
    const before = provider.requests.length;
    const { id } = await start();
    await provider.received(before + 1);
    const client = await server.temporal.getClient();
    await client.workflow.getHandle(jobWorkflowId(translationRunJob, id, 1)).terminate('terminated by the test');
    expect(await repairLostRuns(server, { graceSeconds: 0, organizationId: org.id, logger })).toEqual({
      repaired: 1,
      restarted: 0,
    });
    const lost = (await row(id)).run;
    expect(lost).toMatchObject({ generation: 1, errorCode: 'RUN_LOST' });
    expect(lost.errorMessages?.[0].message).toMatch(/TERMINATED/);
    const path = translationsPath(org.id, id);
    expect((await server.as(admin.token).get(path).expect(200)).body.status).toBe('failed');
    provider.open();
    await server.as(admin.token).post(`${path}/run`).expect(204);
    expect(await settled(server, admin, org.id, id)).toMatchObject({ status: 'completed' });
    expect((await row(id)).run).toMatchObject({ generation: 2, errorCode: null });
  });

  it('backs off on 429 and completes', async () => {
    const { org, admin, start } = await translated(2);
    provider.scripted.push({ status: 429, body: { error: 'Too many requests' }, headers: { 'retry-after': '1' } });
    const before = provider.requests.length;
    const { id } = await start();
    const done = await settled(server, admin, org.id, id);
    expect(done).toMatchObject({ status: 'completed', error: null, stats: { latestPages: 2 } });
    const attempts = provider.requests.slice(before);
    expect(attempts).toHaveLength(2);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(950);
  });

  it('a permanent 4xx fails the run with the provider error on the translation; the next run succeeds', async () => {
    const { org, admin, start } = await translated(2);
    provider.scripted.push({ status: 400, body: { error: 'ru is not supported as target' } });
    const before = provider.requests.length;
    const { id } = await start();
    const failed = await settled(server, admin, org.id, id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: {
        code: TRANSLATION_FAILURES.rejected,
        message: 'libretranslate refused the request (HTTP 400): ru is not supported as target',
      },
      stats: { runs: 0 },
    });
    expect(failed).not.toHaveProperty('result');
    expect(provider.requests.length - before).toBe(1);
    // the failed run's plan stays for inspection until the retention's cleanup removes it
    expect((await row(id)).stagedGeneration).toBe(1);
    const blobs = createBlobStore(server.config);
    await blobs.read(planKey(id, 1));
    const staging = { ...server.config, translation: { ...server.config.translation, stagingRetentionSeconds: 0 } };
    expect(
      await expireStagedRuns(server.ds.manager, staging, new Date(Date.now() + 1000), blobs),
    ).toBeGreaterThanOrEqual(1);
    expect((await row(id)).stagedGeneration).toBeNull();
    await expect(blobs.read(planKey(id, 1))).rejects.toThrow();

    await server
      .as(admin.token)
      .post(`${translationsPath(org.id, id)}/run`)
      .expect(204);
    const done = await settled(server, admin, org.id, id, { runs: 1 });
    expect(done).toMatchObject({ status: 'completed', error: null, stats: { runs: 1, latestPages: 2 } });
    expect((await row(id)).stagedGeneration).toBeNull(); // a completed run removes its own blobs
    await expect(blobs.read(planKey(id, 2))).rejects.toThrow();
  });

  it("a provider outage longer than a step's retries fails the run; the next run keeps the finished step and pays only for the rest", async () => {
    // 6 pages, 4 per step: two steps, one provider request each
    const { org, admin, space, start } = await translated(6);
    provider.hold();
    const before = provider.requests.length;
    const { id } = await start();
    await provider.received(before + 1);
    provider.outage = 503; // from the second step on
    provider.open();
    const failed = await settled(server, admin, org.id, id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: TRANSLATION_FAILURES.unavailable, message: expect.stringContaining('HTTP 503') },
      stats: { runs: 0 },
    });
    const first = provider.requests.slice(before);
    // the first step, then the second: 3 requests (TRANSLATION_RETRY_ATTEMPTS) in each of its 2 attempts (JOB_RETRY_MAX_ATTEMPTS)
    expect(first).toHaveLength(1 + 3 * 2);
    expect(first.slice(2).every((r) => JSON.stringify(r.body.q) === JSON.stringify(first[1].body.q))).toBe(true);

    provider.outage = null;
    const again = provider.requests.length;
    await server
      .as(admin.token)
      .post(`${translationsPath(org.id, id)}/run`)
      .expect(204);
    const done = await settled(server, admin, org.id, id, { runs: 1 });
    expect(done).toMatchObject({ status: 'completed', error: null, stats: { runs: 1, latestPages: 6 } });
    // only the step the outage failed is sent again
    expect(provider.requests.slice(again).map((r) => r.body.q)).toEqual([first[1].body.q]);
    const source = await spacePages(server, space.id);
    const result = await spacePages(server, done.result.space);
    expect(result.map((p) => p.title)).toEqual(source.map((p) => shout(p.title)));
    expect((await row(id)).stagedGeneration).toBeNull();
  });

  it('fails when the source space was deleted', async () => {
    const { org, admin, space, start } = await translated(1);
    provider.hold();
    const before = provider.requests.length;
    const { id } = await start();
    await provider.received(before + 1);
    await server.as(admin.token).delete(`/v1/spaces/${space.id}`).expect(204);
    provider.open();
    for (let i = 0; i < 100 && !(await row(id)).run.finishedAt; i++) await new Promise((r) => setTimeout(r, 100));
    const failed = await row(id);
    expect(failed.run).toMatchObject({ generation: 1, errorCode: TRANSLATION_FAILURES.sourceGone });
    expect(failed.run.errorMessages![0].message).toContain('was deleted');
    await server.as(admin.token).get(translationsPath(org.id, id)).expect(404); // its source is not visible any more
  });

  it('deleting a translation stops its run and leaves the result space as an ordinary space', async () => {
    const { org, admin, space, pageIds, start } = await translated(4);
    const { id } = await start();
    const first = await settled(server, admin, org.id, id);
    const resultBefore = await spacePages(server, first.result.space);
    await editPages(server, admin, space.id, [pageIds[0]]);
    provider.hold();
    const before = provider.requests.length;
    await server
      .as(admin.token)
      .post(`${translationsPath(org.id, id)}/run`)
      .expect(204);
    await provider.received(before + 1);
    await server.as(admin.token).delete(translationsPath(org.id, id)).expect(204);
    const client = await server.temporal.getClient();
    const handle = client.workflow.getHandle(jobWorkflowId(translationRunJob, id, 2));
    await handle.result().catch(() => undefined);
    expect((await handle.describe()).status.name).toBe('CANCELLED');
    provider.open();
    await new Promise((r) => setTimeout(r, 500));
    expect(await server.ds.manager.findOneBy(Translation, { id })).toBeNull();
    const result = (await server.as(admin.token).get(`/v1/spaces/${first.result.space}`).expect(200)).body;
    expect(result).not.toHaveProperty('deletedAt');
    expect((await spacePages(server, first.result.space)).map((p) => p.v)).toEqual(resultBefore.map((p) => p.v));
    await server.as(admin.token).patch(`/v1/spaces/${first.result.space}`).send({ title: 'Handbuch' }).expect(200);
  });

  it('`cli jobs watch` follows a run to its end', async () => {
    const { org, admin, start } = await translated(8);
    provider.hold();
    const before = provider.requests.length;
    const { id } = await start();
    await provider.received(before + 1);
    const watching = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('node', [CLI, 'jobs', 'watch', id, '--json'], {
        env: { ...process.env, MYSQL_DATABASE: server.config.mysql.database },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    await new Promise((r) => setTimeout(r, 1000));
    provider.open();
    const watched = await watching;
    expect(watched.code).toBe(0);
    expect(JSON.parse(watched.stdout)).toMatchObject({ kind: 'translation-run', resourceId: id, status: 'succeeded' });
    // --json draws nothing on stderr: the JSON carries the progress, one figure per kind
    expect(watched.stderr).toBe('');
    const { progress } = JSON.parse(watched.stdout);
    expect(progress.total).toBeGreaterThan(0);
    expect(progress.done).toBe(progress.total);
    expect((await settled(server, admin, org.id, id)).status).toBe('completed');
  }, 60000);
});
