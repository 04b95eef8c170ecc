/**
 * Jobs whose history grows with their data continue as new before JOB_HISTORY_MAX_EVENTS (workflows/job.ts). With a
 * bound of a few steps, an import, a translation and a purge each hand over to new runs of the same workflow id,
 * and the job still behaves as one: it ends once, with its whole result and truthful progress on its row; the memo
 * and search attributes carry over; a cancel reaches the latest run.
 */
import pino from 'pino';
import { contentImportJob } from '../../domain/imports/import-job';
import { importRunStatus } from '../../domain/imports/runs';
import { stateKey } from '../../domain/imports/staging';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { JobTicket } from '../../domain/jobs/job-kind';
import { cancelJobRun } from '../../domain/jobs/job-operator';
import { applyJobTicket } from '../../domain/jobs/job-start';
import { lockSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { translationRunJob } from '../../domain/translations/run-job';
import { ContentGrant } from '../../entities/ContentGrant';
import { ImportRun } from '../../entities/ImportRun';
import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import { loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { createBlobStore } from '../../platform/storage';
import { createOrg } from '../factories';
import { grant, insertSpace } from '../support/content';
import { heldBack } from '../support/held-back';
import { importWebsite } from '../support/import-fixtures';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';
import { settled, spacePages, spaceWithPages, translationsPath } from '../support/translations';
import { SECTIONS, startWebsite, Website } from '../support/website';

/** A run does a handful of steps before its history reaches this many events. */
const HISTORY_MAX_EVENTS = 30;
const logger = pino({ level: 'silent' });
let server: TestServer;
let worker: TestWorker;
let site: Website;

beforeAll(async () => {
  const base = shortJobRetries(privateTaskQueue(loadConfig()));
  server = await startServer({
    ...base,
    jobs: { ...base.jobs, historyMaxEvents: HISTORY_MAX_EVENTS },
    spaceRetentionSeconds: 0,
    purgeBatchSize: 2,
    fetch: { ...base.fetch, allowLoopback: true },
    imports: { ...base.imports, batchPages: 3, concurrency: 2 },
    translation: { ...base.translation, provider: 'pseudo', pagesPerStep: 1, requestsPerSecond: 0 },
  });
  worker = await startWorker(server.ds, server.config);
  site = await startWebsite({ pages: 24 });
}, 120000);

afterAll(async () => {
  await site?.close();
  await worker?.stop();
  await server?.close();
});

/**
 * The executions of a workflow id, first to last, followed through the run each continued as (the last event of its
 * history): how each ended, its memo and search attributes, and its history's length.
 */
async function executions(workflowId: string, firstRunId: string | null) {
  const client = await server.temporal.getClient();
  const runs = [];
  for (let runId = firstRunId ?? undefined; runId; ) {
    const handle = client.workflow.getHandle(workflowId, runId);
    const events = (await handle.fetchHistory()).events ?? [];
    runs.push({ ...(await handle.describe()), events: events.length });
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return runs;
}

async function waitForResult(workflowId: string) {
  const client = await server.temporal.getClient();
  // the handle of the workflow id follows the continuations to the run that ends
  return client.workflow.getHandle(workflowId).result();
}

describe('jobs continue as new past JOB_HISTORY_MAX_EVENTS', () => {
  it('an import continues as new and still ends once, with every page in one revision and its progress', async () => {
    const { importRunId, space } = await importWebsite(server.ds, server.temporal, site);
    const workflowId = jobWorkflowId(contentImportJob, importRunId, 1);
    const outcome = await waitForResult(workflowId);
    expect(outcome.state).toBe('done');

    const run = await server.ds.manager.findOneByOrFail(ImportRun, { id: importRunId });
    expect(importRunStatus(run)).toBe('completed');
    expect(run.importedResources).toBe(1 + SECTIONS + 24);
    expect([run.process.progressDone, run.process.progressTotal]).toEqual([1 + SECTIONS + 24, 1 + SECTIONS + 24]);
    const revisions = await server.ds.manager.findBy(Revision, { spaceId: space.id, type: 'import' });
    expect(revisions.map((r) => r.id)).toEqual([run.revisionId]);

    const runs = await executions(workflowId, run.process.runId);
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.map((r) => r.status.name)).toEqual([...runs.slice(0, -1).map(() => 'CONTINUED_AS_NEW'), 'COMPLETED']);
    const last = runs.at(-1)!;
    expect(last.searchAttributes).toMatchObject({ OrganizationId: [run.organizationId], ResourceId: [importRunId] });
    expect(last.memo).toMatchObject({ revision: run.revisionId });
    // no history past its bound by more than one batch's steps and the run's end
    for (const r of runs) expect(r.events).toBeLessThan(HISTORY_MAX_EVENTS + 20);
  }, 120000);

  it('a cancel reaches the run an import continued as, which removes its staging and commits nothing', async () => {
    const slow = await startWebsite({ pages: 60, delayMs: 40 });
    try {
      const { importRunId, space } = await importWebsite(server.ds, server.temporal, slow);
      const workflowId = jobWorkflowId(contentImportJob, importRunId, 1);
      const first = (await server.ds.manager.findOneByOrFail(ImportRun, { id: importRunId })).process.runId;
      for (let i = 0; (await executions(workflowId, first)).length < 2; i++) {
        if (i > 300) throw new Error('the import did not continue as new');
        await new Promise((r) => setTimeout(r, 100));
      }
      await cancelJobRun(server, importRunId);
      // the latest run is cancelled, or finds its generation moved on first: either way it stops without writing
      const ended = await waitForResult(workflowId).catch(() => ({ state: 'cancelled' }));
      expect(['cancelled', 'superseded']).toContain(ended.state);
      const runs = await executions(workflowId, first);
      expect(runs.length).toBeGreaterThan(1);
      const run = await server.ds.manager.findOneByOrFail(ImportRun, { id: importRunId });
      expect(importRunStatus(run)).toBe('cancelled');
      expect(run.revisionId).toBeNull();
      expect(await server.ds.manager.countBy(Revision, { spaceId: space.id, type: 'import' })).toBe(0);
      // the staging of the batches before the continuation went too
      await expect(createBlobStore(server.config).read(stateKey(importRunId, 1))).rejects.toThrow();
    } finally {
      await slow.close();
    }
  }, 120000);

  it('a translation continues as new between its steps and translates every page once', async () => {
    const fx = await createOrg(server.ds);
    const { space } = await spaceWithPages(server, fx.admin, fx.org.id, 12);
    const created = (
      await server
        .as(fx.admin.token)
        .post(translationsPath(fx.org.id))
        .send({ language: 'de', source: { space: space.id, language: 'en' } })
        .expect(201)
    ).body;
    const done = await settled(server, fx.admin, fx.org.id, created.id, { runs: 1 });
    expect(done.status).toBe('completed');
    const result = await spacePages(server, done.result.space);
    expect(result).toHaveLength(12);

    const row = await server.ds.manager.findOneByOrFail(Translation, { id: created.id });
    const workflowId = jobWorkflowId(translationRunJob, created.id, row.run.generation);
    expect((await waitForResult(workflowId)).state).toBe('done');
    const runs = await executions(workflowId, row.run.runId);
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.at(-1)?.status.name).toBe('COMPLETED');
    expect([row.run.progressDone, row.run.progressTotal]).toEqual([row.run.progressTotal, row.run.progressTotal]);
    expect(row.run.errorCode).toBeNull();
  }, 120000);

  it('a purge continues as new between batches, and removes the space once', async () => {
    const { org, admin } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    for (let i = 0; i < 30; i++)
      await grant(server.ds, org.id, 'space', space.id, `${admin.user.id.slice(0, 20)}${i}`, 'read');
    const ticket = await inTransaction(heldBack(server.ds), async (db) =>
      softDeleteSpace(db, await lockSpace(db, space.id)),
    );
    await applyJobTicket(server.temporal, server.ds.manager, ticket as JobTicket<Space>, logger);
    const workflowId = jobWorkflowId(spacePurgeJob, space.id, 1);
    expect(await waitForResult(workflowId)).toEqual({ state: 'done', result: 'purged' });
    expect(await server.ds.manager.findOneBy(Space, { id: space.id })).toBeNull();
    expect(await server.ds.manager.countBy(ContentGrant, { targetId: space.id })).toBe(0);
    const runs = await executions(workflowId, ticket.row.purge.runId);
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.map((r) => r.status.name)).toEqual([...runs.slice(0, -1).map(() => 'CONTINUED_AS_NEW'), 'COMPLETED']);
  }, 120000);
});
