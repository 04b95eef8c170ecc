/**
 * Fault tests of the job machinery on a real worker in this process, whose DataSource
 * reaches MariaDB through a TCP proxy (test/support/tcp-proxy.ts); the test's own connection is direct.
 * The proxy holds chosen statements of the jobs' steps, so each run is caught at a known point:
 *
 * - a database cut longer than a work step's retries (3 attempts, 100 then 200 ms apart) and shorter
 *   than the bookkeeping's budget (5 min): every job ends succeeded, or failed with a code and
 *   restartable, by itself (the repair pass finds nothing), and no effect happens twice;
 * - runs terminated in Temporal mid-step: one repair pass records RUN_LOST on each, the next request
 *   runs a new generation, and no effect happens twice.
 *
 * The `kill -9` of a worker between an effect and its completion is in job-faults-kill.test.ts.
 */
import { promises as fs } from 'fs';
import path from 'path';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { contentImportJob } from '../../domain/imports/import-job';
import { integrationDispatchJob } from '../../domain/integrations/dispatch-job';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { retryJob } from '../../domain/jobs/job-operator';
import { repairLostRuns } from '../../domain/jobs/job-repair';
import { applyJobTicket } from '../../domain/jobs/job-start';
import { defineSchedule, ensureSchedules } from '../../domain/jobs/schedules';
import { openapiProcessJob } from '../../domain/openapi-specs/process-job';
import { pdfExportJob } from '../../domain/pdf/export-job';
import { lockSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { translationRunJob } from '../../domain/translations/run-job';
import { ImportRun } from '../../entities/ImportRun';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import { PdfExport } from '../../entities/PdfExport';
import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import { loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { inTransaction } from '../../platform/db/transactions';
import { createOrg, OrgFixture, unique } from '../factories';
import { newChangeRequest, newSpace } from '../support/api';
import { FakeProvider } from '../support/fake-translation-provider';
import { heldBack } from '../support/held-back';
import { devMode, publishAndInstall, Tunnel } from '../support/integration-tunnel';
import {
  AnyJobKind,
  activityAttempts,
  beginStatement,
  describeAttempts,
  finishStatement,
  JobRowState,
  jobEnded,
  statementOn,
} from '../support/job-faults';
import { startServer, TestServer } from '../support/server';
import { Gate, Hold, TcpProxy } from '../support/tcp-proxy';
import { privateTaskQueue, startWorker, TestWorker } from '../support/temporal';
import { spacePages, spaceWithPages, translationsPath } from '../support/translations';
import { SECTIONS, startWebsite, Website } from '../support/website';

/** Longer than a work step's retries (3 attempts, 100 ms then 200 ms apart), far shorter than the bookkeeping's 5 min. */
const CUT_MS = 8000;
/** A purge deleted just before the cut sleeps through it. */
const RETENTION_SECONDS = 15;
const SITE_PAGES = 10;
const IMPORTED = 1 + SECTIONS + SITE_PAGES;
const logger = pino({ level: 'silent' });

let site: Website;
let provider: FakeProvider;
let tunnel: Tunnel;
let proxy: TcpProxy;
let server: TestServer;
let workerDs: DataSource;
let worker: TestWorker;

jest.setTimeout(120_000);

beforeAll(async () => {
  site = await startWebsite({ pages: SITE_PAGES });
  provider = await new FakeProvider('libretranslate').start();
  tunnel = await new Tunnel().start();
  const base = loadConfig();
  const config = privateTaskQueue({
    ...base,
    spaceRetentionSeconds: RETENTION_SECONDS,
    fetch: { ...base.fetch, allowLoopback: true },
    imports: { ...base.imports, waitSeconds: 0, batchPages: 5 },
    pdf: { ...base.pdf, waitSeconds: 0 },
    translation: {
      ...base.translation,
      provider: 'libretranslate' as const,
      libretranslate: { url: provider.url, apiKey: '' },
      pagesPerStep: 2,
      requestsPerSecond: 0,
    },
    jobs: {
      ...base.jobs,
      retry: {
        initialIntervalMs: 100,
        maximumIntervalMs: 1000,
        maximumAttempts: 3,
        // nothing dies here: room for a busy event loop
        heartbeatTimeoutMs: 20_000,
        // counted from a step's first attempt, which the proxy may hold for a minute on a busy machine before the
        // cut: 60 s left begin and finish no retries once (a CI run failed so)
        bookkeepingBudgetMs: 300_000,
      },
    },
  });
  server = await startServer(config);
  proxy = await new TcpProxy({ host: config.mysql.host, port: config.mysql.port }).start();
  workerDs = await createDataSource({ ...config, mysql: { ...config.mysql, port: proxy.port } }).initialize();
  worker = await startWorker(workerDs, config);
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await workerDs?.destroy();
  await proxy?.close();
  await server?.close();
  await site?.close();
  provider?.close();
  await tunnel?.close();
});

// a failed case leaves statements held in open transactions: they must not hold their locks for minutes
afterEach(() => proxy.reset());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function within<T>(ms: number, what: () => string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(what())), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Blob keys under a prefix of the local store. */
async function blobsUnder(prefix: string): Promise<string[]> {
  const entries = await fs
    .readdir(path.join(server.config.blobs.dir, prefix), { recursive: true, withFileTypes: true })
    .catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(server.config.blobs.dir, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
}

/** Waits until the run sleeps on a durable timer (a purge waiting out its retention). */
async function asleep(workflowId: string): Promise<void> {
  const handle = (await server.temporal.getClient()).workflow.getHandle(workflowId);
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(50)) {
    const { events } = await handle.fetchHistory();
    if (events?.some((e) => e.timerStartedEventAttributes)) return;
  }
  throw new Error(`${workflowId} did not start its timer`);
}

/** The runs the gate holds at their begin (every kind but the purge, which begins in its first check). */
const GATED: AnyJobKind[] = [
  openapiProcessJob,
  pdfExportJob,
  contentImportJob,
  translationRunJob,
  integrationDispatchJob,
];
const gateBegins = (): Gate => proxy.gate((sql) => GATED.some((kind) => beginStatement(server.ds, kind, null)(sql)));

/** How the jobs are asked for: through the API as a user would, in one organization. */
function requests(fx: OrgFixture) {
  const api = server.as(fx.admin.token);
  return {
    spec: async (slug: string): Promise<string> => {
      const text = `openapi: 3.1.0\ninfo: {title: ${slug}, version: "1"}\npaths: {}\n`;
      return (await api.post(`/v1/orgs/${fx.org.id}/openapi`).send({ slug, source: { text } }).expect(201)).body.id;
    },
    /** A change request of a one-page space, and its PDF asked for; returns the request again. */
    pdf: async (): Promise<{ again: () => Promise<void>; id: () => Promise<string> }> => {
      const space = await newSpace(server, fx.admin, fx.org.id, { title: 'PDF' });
      await api.post(`/v1/spaces/${space.id}/content/pages`).send({ title: 'Guide', markdown: 'Text.' }).expect(201);
      const cr = await newChangeRequest(server, fx.admin, space.id, { subject: 'Edit' });
      const again = async () => void (await api.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`).expect(202));
      await again();
      const id = async () => (await server.ds.manager.findOneByOrFail(PdfExport, { changeRequestId: cr.id })).id;
      return { again, id };
    },
    importRun: async (): Promise<{ runId: string; spaceId: string }> => {
      const space = await newSpace(server, fx.admin, fx.org.id);
      const res = await api
        .post(`/v1/spaces/${space.id}/content/import`)
        .send({ url: `${site.base}/site/`, source: 'website' })
        .expect(202);
      return { runId: res.headers.location.split('/').pop()!, spaceId: space.id };
    },
    translation: async (sourceSpaceId: string, language: string): Promise<string> =>
      (
        await api
          .post(translationsPath(fx.org.id))
          .send({ language, source: { space: sourceSpaceId, language: 'en' } })
          .expect(201)
      ).body.id,
  };
}

/** An organization whose integration's tunnel takes it, and an event of one page write. */
async function dispatchedEvent(): Promise<string> {
  const other = await createOrg(server.ds);
  const { name } = await publishAndInstall(server, other.admin, other.org.id);
  const covered = await newSpace(server, other.admin, other.org.id);
  await devMode(server, other.admin, name, tunnel.url);
  await server
    .as(other.admin.token)
    .post(`/v1/spaces/${covered.id}/content/pages`)
    .send({ title: 'Page', markdown: 'Text.' })
    .expect(201);
  const [{ id }] = await server.ds.query(
    'SELECT e.id FROM integration_events e JOIN integrations i ON i.id = e.integrationId WHERE i.name = ? AND e.type = ?',
    [name, 'space_content_updated'],
  );
  return id;
}

// what must hold once a job succeeded: each effect once

const versionsOf = (specId: string) => server.ds.manager.findBy(OpenAPISpecVersion, { specId });

async function oneVersion(specId: string): Promise<void> {
  expect(await versionsOf(specId)).toHaveLength(1);
}

async function onePdf(id: string): Promise<void> {
  const row = await server.ds.manager.findOneByOrFail(PdfExport, { id });
  expect(row.fileKey).toBe(`pdf/${id}/export.pdf`);
  expect(await blobsUnder(`pdf/${id}`)).toEqual([`pdf/${id}/export.pdf`]);
}

async function oneImport(runId: string, spaceId: string): Promise<void> {
  const run = await server.ds.manager.findOneByOrFail(ImportRun, { id: runId });
  const revisions = await server.ds.manager.findBy(Revision, { spaceId, type: 'import' });
  expect(revisions.map((r) => r.id)).toEqual([run.revisionId]);
  const pages = await spacePages(server, spaceId);
  expect(pages).toHaveLength(IMPORTED);
  expect(new Set(pages.map((p) => p.title)).size).toBe(IMPORTED);
  // the staging went, but for the images the revision references
  expect((await blobsUnder(`imports/${runId}`)).filter((k) => !k.includes('/files/'))).toEqual([]);
}

async function oneTranslation(id: string, sourceSpaceId: string): Promise<void> {
  const t = await server.ds.manager.findOneByOrFail(Translation, { id });
  expect(t.runs).toBe(1);
  const pages = await spacePages(server, t.resultSpaceId!);
  expect(pages.map((p) => p.id)).toEqual((await spacePages(server, sourceSpaceId)).map((p) => p.id));
  expect(pages.every((p) => p.markdown.includes('EXPLAINS HOW THE WIDGET WORKS'))).toBe(true);
  expect(await server.ds.manager.countBy(Revision, { spaceId: t.resultSpaceId!, type: 'edits' })).toBe(1);
}

async function purged(spaceId: string): Promise<void> {
  expect(await server.ds.manager.countBy(Space, { id: spaceId })).toBe(0);
  expect(await server.ds.manager.countBy(Revision, { spaceId })).toBe(0);
}

const eventOf = (id: string) => server.ds.manager.findOneByOrFail(IntegrationEvent, { id });
const deliveriesOf = (id: string) => tunnel.received.filter((d) => d.event.eventId === id).length;

interface Case {
  name: string;
  kind: AnyJobKind;
  id: string;
  /** The statement of the first run held when the fault strikes (none: the run sleeps through it). */
  hold?: Hold;
  /** What the first run ends as. */
  expected: 'succeeded' | 'failed' | 'gone';
  /** A new request, or `cli jobs retry`, for a failed one. */
  restart?: () => Promise<void>;
  /** What holds of the rows and blobs once the job succeeded. */
  effects: () => Promise<void>;
}

async function allHeld(cases: Case[]): Promise<void> {
  await within(
    60_000,
    () => `not held: ${cases.filter((c) => c.hold && !c.hold.isReached).map((c) => c.name)}`,
    Promise.all(cases.map((c) => c.hold?.reached)),
  );
}

/** Each case's restart, then its new generation's end; returns the ends. */
async function restartFailed(cases: Case[]): Promise<Array<JobRowState & { at: number }>> {
  for (const c of cases) await c.restart!();
  return Promise.all(cases.map((c) => jobEnded(server.ds, c.kind, c.id, { generation: 2 })));
}

/** Every case's effects, each failure named. */
async function effectProblems(cases: Case[]): Promise<string[]> {
  const problems: string[] = [];
  for (const c of cases)
    await c.effects().catch((err: Error) => problems.push(`${c.name}: ${err.message.replace(/\s+/g, ' ')}`));
  return problems;
}

const retry = (id: string) => async () => void (await retryJob(server, id));

describe('a database cut longer than the work steps’ retries', () => {
  /** What the runs failed by the cut left, read before anyone restarts them. */
  const left = {
    bundles: [] as string[],
    staging: [] as string[],
    /** The event when its job failed, and after the restart, with the deliveries the tunnel had received. */
    failed: null as { event: IntegrationEvent; deliveries: number } | null,
    restarted: null as { event: IntegrationEvent; deliveries: number } | null,
  };

  it('every kind ends succeeded, or failed with a code and restartable, by itself; no effect twice', async () => {
    const fx = await createOrg(server.ds);
    const ask = requests(fx);
    const gate = gateBegins();
    const specIds = [
      await ask.spec('begins-in-cut'),
      await ask.spec('saves-in-cut'),
      await ask.spec('finishes-in-cut'),
    ];
    const pdfs = [await ask.pdf(), await ask.pdf()];
    const imports = [await ask.importRun(), await ask.importRun()];
    const { space: source } = await spaceWithPages(server, fx.admin, fx.org.id, 6);
    const translationIds = [await ask.translation(source.id, 'es'), await ask.translation(source.id, 'de')];
    const eventId = await dispatchedEvent();
    await gate.waitFor(10);
    const pdfIds = await Promise.all(pdfs.map((p) => p.id()));

    // where each run is caught: its begin (kept by the gate), a step, or its finish
    const hold = (match: (sql: string) => boolean) => proxy.hold(match);
    const holds = {
      specSave: hold(statementOn('INSERT INTO `openapi_spec_versions`', specIds[1])),
      specFinish: hold(finishStatement(server.ds, openapiProcessJob, specIds[2])),
      pdfSave: hold(statementOn('UPDATE `pdf_exports` SET `fileKey`', pdfIds[0])),
      pdfFinish: hold(finishStatement(server.ds, pdfExportJob, pdfIds[1])),
      importCommit: hold(statementOn('UPDATE `import_runs` SET `revisionId`', imports[0].runId)),
      apply: hold(statementOn('INSERT INTO `translation_pages`', translationIds[0])),
      translationFinish: hold(finishStatement(server.ds, translationRunJob, translationIds[1])),
      record: hold(statementOn('UPDATE `integration_events` SET `status`', eventId)),
    };
    const kept = gate.open((sql) => [specIds[0], imports[1].runId].some((id) => sql.includes(`'${id}'`)));
    const keptFor = (id: string) => kept.find((h) => h.sql.includes(`'${id}'`));

    const cases: Case[] = [
      {
        name: 'OpenAPI, begin in the cut',
        kind: openapiProcessJob,
        id: specIds[0],
        hold: keptFor(specIds[0]),
        expected: 'succeeded',
        effects: () => oneVersion(specIds[0]),
      },
      {
        name: 'OpenAPI, save in the cut',
        kind: openapiProcessJob,
        id: specIds[1],
        hold: holds.specSave,
        expected: 'failed',
        restart: retry(specIds[1]),
        effects: () => oneVersion(specIds[1]),
      },
      {
        name: 'OpenAPI, finish in the cut',
        kind: openapiProcessJob,
        id: specIds[2],
        hold: holds.specFinish,
        expected: 'succeeded',
        effects: () => oneVersion(specIds[2]),
      },
      {
        name: 'PDF, save in the cut',
        kind: pdfExportJob,
        id: pdfIds[0],
        hold: holds.pdfSave,
        expected: 'failed',
        // the user's next request
        restart: pdfs[0].again,
        effects: () => onePdf(pdfIds[0]),
      },
      {
        name: 'PDF, finish in the cut',
        kind: pdfExportJob,
        id: pdfIds[1],
        hold: holds.pdfFinish,
        expected: 'succeeded',
        effects: () => onePdf(pdfIds[1]),
      },
      {
        name: 'import, begin in the cut',
        kind: contentImportJob,
        id: imports[1].runId,
        hold: keptFor(imports[1].runId),
        expected: 'succeeded',
        effects: () => oneImport(imports[1].runId, imports[1].spaceId),
      },
      {
        name: 'import, commit in the cut',
        kind: contentImportJob,
        id: imports[0].runId,
        hold: holds.importCommit,
        expected: 'failed',
        restart: retry(imports[0].runId),
        effects: () => oneImport(imports[0].runId, imports[0].spaceId),
      },
      {
        name: 'translation, apply in the cut',
        kind: translationRunJob,
        id: translationIds[0],
        hold: holds.apply,
        expected: 'failed',
        restart: retry(translationIds[0]),
        effects: () => oneTranslation(translationIds[0], source.id),
      },
      {
        name: 'translation, finish in the cut',
        kind: translationRunJob,
        id: translationIds[1],
        hold: holds.translationFinish,
        expected: 'succeeded',
        effects: () => oneTranslation(translationIds[1], source.id),
      },
      {
        name: 'dispatch, record in the cut',
        kind: integrationDispatchJob,
        id: eventId,
        hold: holds.record,
        expected: 'failed',
        restart: retry(eventId),
        effects: async () => {
          expect((await eventOf(eventId)).status).toBe('success');
          // delivered again: its first answer was never recorded (at least once)
          expect(deliveriesOf(eventId)).toBe(2);
        },
      },
    ];

    // purges: one due at once whose first batch is caught, one that sleeps through the cut
    const dueSpace = await newSpace(server, fx.admin, fx.org.id);
    const purgeBatch = proxy.hold(statementOn('DELETE FROM `content_grants`', dueSpace.id));
    const dueTicket = await inTransaction(heldBack(server.ds), async (db) => {
      const ticket = await softDeleteSpace(db, await lockSpace(db, dueSpace.id));
      await db.update(Space, { id: dueSpace.id }, { deletedAt: new Date(Date.now() - 2 * RETENTION_SECONDS * 1000) });
      return ticket;
    });
    await applyJobTicket(server.temporal, server.ds.manager, dueTicket, logger);
    cases.push({
      name: 'purge, batch in the cut',
      kind: spacePurgeJob,
      id: dueSpace.id,
      hold: purgeBatch,
      expected: 'failed',
      restart: retry(dueSpace.id),
      effects: () => purged(dueSpace.id),
    });
    await allHeld(cases);
    const sleeper = await newSpace(server, fx.admin, fx.org.id);
    await server.as(fx.admin.token).delete(`/v1/spaces/${sleeper.id}`).expect(204);
    await asleep(jobWorkflowId(spacePurgeJob, sleeper.id, 1));
    cases.push({
      name: 'purge, asleep through the cut',
      kind: spacePurgeJob,
      id: sleeper.id,
      expected: 'gone',
      effects: () => purged(sleeper.id),
    });

    // the cut: the held statements die with their connections
    const cutAt = Date.now();
    proxy.cutOff();
    await sleep(CUT_MS);
    proxy.restore();
    const restoredAt = Date.now();

    // a run still active 20 s after the cut would wait for the repair pass: the old bookkeeping's fate
    const ends = await Promise.all(
      cases.map((c) =>
        jobEnded(server.ds, c.kind, c.id, { timeoutMs: (c.hold ? 0 : RETENTION_SECONDS * 1000) + 20_000 }).catch(
          () => ({ status: 'still active' as const, state: null, at: Date.now() }),
        ),
      ),
    );
    left.bundles = await blobsUnder(`openapi/${specIds[1]}/bundles`);
    left.staging = (await blobsUnder(`imports/${imports[0].runId}`)).filter((k) => !k.includes('/files/'));
    left.failed = { event: await eventOf(eventId), deliveries: deliveriesOf(eventId) };

    const client = await server.temporal.getClient();
    const report = [`cut ${restoredAt - cutAt} ms; ${proxy.counts.refused} connections refused meanwhile`];
    for (const [i, c] of cases.entries()) {
      const attempts = c.hold ? await activityAttempts(client, jobWorkflowId(c.kind, c.id, 1)) : [];
      const code = ends[i].state?.errorCode ? ` ${ends[i].state!.errorCode}` : '';
      report.push(
        `${c.name}: ${ends[i].status}${code} ${ends[i].at - restoredAt} ms after the cut; ${describeAttempts(attempts, restoredAt)}`,
      );
    }
    // biome-ignore lint/suspicious/noConsole: the measured figures, for the record
    console.info(`database cut:\n  ${report.join('\n  ')}`);

    expect(cases.map((c, i) => [c.name, ends[i].status])).toEqual(cases.map((c) => [c.name, c.expected]));
    for (const [i, c] of cases.entries())
      if (c.expected === 'failed') expect([c.name, ends[i].state?.errorCode]).toEqual([c.name, 'JOB_FAILED']);
    expect(await repairLostRuns(server, { graceSeconds: 0, organizationId: fx.org.id, logger })).toEqual({
      repaired: 0,
      restarted: 0,
    });

    const restarted = cases.filter((c) => c.restart);
    const again = await restartFailed(restarted);
    expect(restarted.map((c, i) => [c.name, again[i].status])).toEqual(
      restarted.map((c) => [c.name, c.kind === spacePurgeJob ? 'gone' : 'succeeded']),
    );
    expect(await effectProblems(cases)).toEqual([]);
    left.restarted = { event: await eventOf(eventId), deliveries: deliveriesOf(eventId) };
  });

  // What the cut showed, now mended: the clean-up steps of a failed run (discardOpenAPIBundle,
  // discardImportStaging, abandonIntegrationEvent) had the work steps' retries, so the outage that failed the run
  // skipped them too (the bundle and the staging stayed for ever, the event `pending` under a failed job); they
  // retry like the bookkeeping now. And a POST is noted in the trace before it is sent, so a delivery whose answer
  // was never recorded shows there.

  it('a run the cut failed leaves no OpenAPI bundle and no import staging behind', () => {
    expect({ bundles: left.bundles, staging: left.staging }).toEqual({ bundles: [], staging: [] });
  });

  it('a delivery the cut failed ends its event failed, and its trace shows every delivery', () => {
    const seen = (at: { event: IntegrationEvent; deliveries: number } | null) => ({
      status: at?.event.status,
      deliveries: at?.deliveries,
      // trace lines naming a POST to the tunnel
      traced: at?.event.trace.filter((l) => l.message.includes(`${tunnel.url}/v1`)).length,
    });
    expect({ failed: seen(left.failed), restarted: seen(left.restarted) }).toEqual({
      failed: { status: 'failed', deliveries: 1, traced: 1 },
      restarted: { status: 'success', deliveries: 2, traced: 2 },
    });
  });
});

// What the faults showed, now mended: a delivery's run that found its event no longer pending ended
// SUPERSEDED although its generation was the row's, so runJob wrote nothing: the job stayed active, and the
// repair pass asked for it again at every pass, for ever. Now such a run ends as the event did, and a new
// generation of a failed delivery (a retry) delivers it again (the dispatch kind's beforeRunAgain).
describe('restarting a failed delivery', () => {
  it('a delivery its tunnel refused (DELIVERY_FAILED) runs again on cli jobs retry', async () => {
    tunnel.statuses = [406];
    const eventId = await dispatchedEvent();
    const failed = await jobEnded(server.ds, integrationDispatchJob, eventId);
    expect([failed.status, failed.state?.errorCode, (await eventOf(eventId)).status]).toEqual([
      'failed',
      'DELIVERY_FAILED',
      'failed',
    ]);
    await retryJob(server, eventId);
    // the new run (same workflow id, a single-run kind) closes; its row must say how
    const client = await server.temporal.getClient();
    const result = await client.workflow.getHandle(jobWorkflowId(integrationDispatchJob, eventId, 2)).result();
    const row = await eventOf(eventId);
    const repair = await repairLostRuns(server, {
      graceSeconds: 0,
      organizationId: row.organizationId,
      logger,
    });
    expect({
      result,
      job: row.dispatch.finishedAt ? 'ended' : 'active',
      event: row.status,
      deliveries: deliveriesOf(eventId),
      repair,
    }).toEqual({
      result: expect.objectContaining({ state: 'done' }),
      job: 'ended',
      event: 'success',
      deliveries: 2,
      repair: { repaired: 0, restarted: 0 },
    });
  });
});

describe('runs terminated in Temporal', () => {
  /** Period of the repair pass's Schedule here (RECONCILE_INTERVAL_SECONDS, 60 s by default). */
  const REPAIR_PERIOD_SECONDS = 3;
  const left = { restarted: null as { event: IntegrationEvent; deliveries: number } | null };

  it('OpenAPI, PDF, import and dispatch runs terminated mid-step are ended (RUN_LOST) within one repair period; the next request runs a new generation; no effect twice', async () => {
    const fx = await createOrg(server.ds);
    const ask = requests(fx);
    const gate = gateBegins();
    const specId = await ask.spec('terminated');
    const pdf = await ask.pdf();
    const imported = await ask.importRun();
    let answerTunnel: () => void = () => undefined;
    const tunnelAnswers = new Promise<void>((resolve) => {
      answerTunnel = resolve;
    });
    let delivering: () => void = () => undefined;
    const delivered = new Promise<void>((resolve) => {
      delivering = resolve;
    });
    tunnel.onEvent = async () => {
      delivering();
      await tunnelAnswers;
    };
    const eventId = await dispatchedEvent();
    await gate.waitFor(4);
    const pdfId = await pdf.id();
    const cases: Case[] = [
      {
        name: 'OpenAPI, terminated in its save',
        kind: openapiProcessJob,
        id: specId,
        hold: proxy.hold(statementOn('INSERT INTO `openapi_spec_versions`', specId)),
        expected: 'failed',
        restart: retry(specId),
        effects: async () => {
          // the terminated run's save landed: the new generation's bundle equals it, and adds no version
          const versions = await versionsOf(specId);
          expect(versions.map((v) => v.generation)).toEqual([1]);
          expect(await blobsUnder(`openapi/${specId}/bundles`)).toEqual([versions[0].filesystemKey]);
        },
      },
      {
        name: 'PDF, terminated in its save',
        kind: pdfExportJob,
        id: pdfId,
        hold: proxy.hold(statementOn('UPDATE `pdf_exports` SET `fileKey`', pdfId)),
        expected: 'failed',
        restart: pdf.again,
        effects: () => onePdf(pdfId),
      },
      {
        name: 'import, terminated in its commit',
        kind: contentImportJob,
        id: imported.runId,
        hold: proxy.hold(statementOn('UPDATE `import_runs` SET `revisionId`', imported.runId)),
        expected: 'failed',
        restart: retry(imported.runId),
        effects: () => oneImport(imported.runId, imported.spaceId),
      },
    ];
    gate.open();
    await allHeld(cases);
    await within(30_000, () => 'the delivery did not reach the tunnel', delivered);

    const client = await server.temporal.getClient();
    const schedules = await ensureSchedules(
      server.temporal,
      server.config,
      [fx.org.id, (await eventOf(eventId)).organizationId].map((organizationId) =>
        defineSchedule({
          name: unique('repair-'),
          workflow: 'reconcileJobs',
          everySeconds: () => REPAIR_PERIOD_SECONDS,
          args: [{ organizationId, graceSeconds: 0 }],
        }),
      ),
    );
    try {
      const terminatedAt = Date.now();
      for (const [kind, id] of [
        ...cases.map((c) => [c.kind, c.id] as const),
        [integrationDispatchJob, eventId] as const,
      ])
        await client.workflow.getHandle(jobWorkflowId(kind, id, 1)).terminate('terminated by the test');
      // the steps under way go on: the saves and the commit land after their run is gone, the tunnel answers
      for (const c of cases) c.hold!.release();
      answerTunnel();
      tunnel.onEvent = null;

      const ends = await Promise.all(cases.map((c) => jobEnded(server.ds, c.kind, c.id, { timeoutMs: 30_000 })));
      const redelivered = await jobEnded(server.ds, integrationDispatchJob, eventId, { generation: 2 });
      const report = [`repair pass every ${REPAIR_PERIOD_SECONDS} s`];
      for (const [i, c] of cases.entries())
        report.push(
          `${c.name}: ${ends[i].status} ${ends[i].state?.errorCode} ${ends[i].at - terminatedAt} ms after the terminate`,
        );
      report.push(
        `dispatch, terminated in its delivery: generation 2 ${redelivered.status} ${redelivered.at - terminatedAt} ms after the terminate`,
        // nobody removes a terminated run's staging until the run is asked for again
        `staging the terminated import left: ${(await blobsUnder(`imports/${imported.runId}`)).length} blobs`,
      );
      // biome-ignore lint/suspicious/noConsole: the measured figures, for the record
      console.info(`runs terminated:\n  ${report.join('\n  ')}`);

      for (const [i, c] of cases.entries()) {
        expect([c.name, ends[i].status, ends[i].state?.errorCode]).toEqual([c.name, 'failed', 'RUN_LOST']);
        expect(ends[i].state?.errorMessages?.[0].message).toMatch(/TERMINATED/);
        // one period, and the pass itself
        expect([c.name, ends[i].at - terminatedAt < (REPAIR_PERIOD_SECONDS + 5) * 1000]).toEqual([c.name, true]);
      }
      // the dispatch was asked for again by the repair pass: delivered again (at least once)
      expect(redelivered.status).toBe('succeeded');
      expect([(await eventOf(eventId)).status, deliveriesOf(eventId)]).toEqual(['success', 2]);

      const again = await restartFailed(cases);
      expect(cases.map((c, i) => [c.name, again[i].status])).toEqual(cases.map((c) => [c.name, 'succeeded']));
      expect(await effectProblems(cases)).toEqual([]);
      left.restarted = { event: await eventOf(eventId), deliveries: deliveriesOf(eventId) };
    } finally {
      tunnel.onEvent = null;
      for (const id of schedules) await client.schedule.getHandle(id).delete();
    }
  });

  it('a dispatch terminated after its delivery was recorded ends with one repair pass, delivered once', async () => {
    const gate = proxy.gate((sql) => beginStatement(server.ds, integrationDispatchJob, null)(sql));
    const eventId = await dispatchedEvent();
    await gate.waitFor(1);
    const finish = proxy.hold(finishStatement(server.ds, integrationDispatchJob, eventId));
    gate.open();
    await within(30_000, () => 'the finish was not held', finish.reached);
    const client = await server.temporal.getClient();
    const handle = client.workflow.getHandle(jobWorkflowId(integrationDispatchJob, eventId, 1));
    await handle.terminate('terminated by the test');
    finish.drop();
    const organizationId = (await eventOf(eventId)).organizationId;
    const pass = () => repairLostRuns(server, { graceSeconds: 0, organizationId, logger });
    const first = await pass();
    // the run the pass asked for, if any, closes
    await client.workflow
      .getHandle(jobWorkflowId(integrationDispatchJob, eventId, 2))
      .result()
      .catch(() => undefined);
    const second = await pass();
    const event = await eventOf(eventId);
    expect({
      first,
      second,
      job: event.dispatch.finishedAt ? 'ended' : 'active',
      status: event.status,
      deliveries: deliveriesOf(eventId),
    }).toEqual({
      first: { repaired: 1, restarted: expect.any(Number) },
      second: { repaired: 0, restarted: 0 },
      job: 'ended',
      status: 'success',
      deliveries: 1,
    });
  });

  it('a delivery repeated after its run was lost shows both deliveries in its trace', () => {
    const traced = left.restarted?.event.trace.filter((l) => l.message.includes(`${tunnel.url}/v1`)).length;
    expect({ deliveries: left.restarted?.deliveries, traced }).toEqual({ deliveries: 2, traced: 2 });
  });
});
