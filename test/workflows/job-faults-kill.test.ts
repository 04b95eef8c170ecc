/**
 * `kill -9` of a worker between an effect and its completion, for the purge, the PDF
 * export and the OpenAPI processing (imports, translations and dispatch have theirs). The worker runs
 * as a child process from `dist/` (test/support/worker-process.ts) whose database is reached through a
 * TCP proxy in this process (test/support/tcp-proxy.ts): the proxy lets a step's transaction commit and
 * holds the server's answer, or holds a statement, so the worker dies at a known point. A new worker
 * then finishes every job, and no effect on our rows or blobs happens twice.
 *
 * The retried steps come back when Temporal gives the dead worker's attempt up: after the heartbeat
 * timeout (2 s) for a step that heartbeats (purge batch, PDF collect), after its start-to-close timeout
 * for one that does not (finishJob 30 s, the OpenAPI save 60 s).
 */
import { createHash } from 'crypto';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { openapiProcessJob } from '../../domain/openapi-specs/process-job';
import { pdfExportJob } from '../../domain/pdf/export-job';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { ContentObject } from '../../entities/ContentObject';
import { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import { PdfExport } from '../../entities/PdfExport';
import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import { loadConfig } from '../../platform/config';
import { createBlobStore } from '../../platform/storage';
import { createOrg } from '../factories';
import { newChangeRequest, newSpace } from '../support/api';
import { download, upload } from '../support/content-forms';
import {
  activityAttempts,
  beginStatement,
  describeAttempts,
  finishStatement,
  jobEnded,
  statementOn,
} from '../support/job-faults';
import { startServer, TestServer } from '../support/server';
import { TcpProxy } from '../support/tcp-proxy';
import { polling, WorkerProcesses } from '../support/worker-process';

let proxy: TcpProxy;
let server: TestServer;
let workers: WorkerProcesses;
/** Every statement the workers sent, in order. */
const statements: string[] = [];

jest.setTimeout(150_000);

beforeAll(async () => {
  const base = loadConfig();
  proxy = await new TcpProxy({ host: base.mysql.host, port: base.mysql.port }).start();
  proxy.onStatement = (sql) => statements.push(sql);
  server = await startServer({
    ...base,
    temporal: { ...base.temporal, taskQueue: `test-faults-kill-${Date.now()}` },
    pdf: { ...base.pdf, waitSeconds: 0 },
    // a run's retry policy is its starter's (the API here): the workers' own, test/support/worker-process.ts
    jobs: {
      ...base.jobs,
      retry: {
        initialIntervalMs: 100,
        maximumIntervalMs: 500,
        maximumAttempts: 5,
        heartbeatTimeoutMs: 2000,
        bookkeepingBudgetMs: 60_000,
      },
    },
  });
  workers = new WorkerProcesses({
    MYSQL_DATABASE: server.config.mysql.database,
    MYSQL_PORT: String(proxy.port),
    TEMPORAL_TASK_QUEUE: server.config.temporal.taskQueue,
    SPACE_RETENTION_SECONDS: '1',
  });
}, 60_000);

afterAll(async () => {
  workers?.killAll();
  await proxy?.close();
  await server?.close();
});

const blobKey = (spaceId: string, bytes: Buffer) =>
  `files/${spaceId}/${createHash('sha256').update(bytes).digest('hex')}`;

it('kill -9 of the worker after a step’s effect, before its completion: purge, PDF and OpenAPI end once a new worker runs, each effect once', async () => {
  const { org, admin } = await createOrg(server.ds);
  const api = server.as(admin.token);
  const blobs = createBlobStore(server.config);
  const stored = (key: string) =>
    blobs.read(key).then(
      () => true,
      () => false,
    );
  const worker = workers.start();
  // begins wait at the gate until the statements to hold are named by id
  const gate = proxy.gate((sql) =>
    [openapiProcessJob, pdfExportJob].some((kind) => beginStatement(server.ds, kind, null)(sql)),
  );

  // purge: a space with its own file and one it shares with its duplicate
  const spaceId = (await newSpace(server, admin, org.id, { title: 'Purged' })).id as string;
  const shared = Buffer.from(`shared ${spaceId}`);
  const own = Buffer.from(`own ${spaceId}`);
  const prefix = `/v1/spaces/${spaceId}/content`;
  await upload(server, admin.token, prefix, 'shared.txt', shared, 'text/plain').expect(201);
  await api.post(`${prefix}/pages`).send({ title: 'Shared page', markdown: 'in both' }).expect(201);
  const duplicate = (await api.post(`/v1/spaces/${spaceId}/duplicate`).expect(201)).body.id as string;
  await upload(server, admin.token, prefix, 'own.txt', own, 'text/plain').expect(201);
  await api.post(`${prefix}/pages`).send({ title: 'Only here', markdown: 'gone with it' }).expect(201);
  const ownRoot = (
    await server.ds.manager.findOneByOrFail(Revision, {
      id: (await server.ds.manager.findOneByOrFail(Space, { id: spaceId })).revisionId!,
    })
  ).root;
  // the run's finish deletes the space row and commits; the worker never hears so
  const purgeCommitted = proxy.hold(statementOn('DELETE FROM `spaces`', spaceId), 'commit-answer');
  await api.delete(`/v1/spaces/${spaceId}`).expect(204);

  // OpenAPI: a spec from a text
  const text = 'openapi: 3.1.0\ninfo: {title: Killed, version: "1"}\npaths: {}\n';
  const specId = (await api.post(`/v1/orgs/${org.id}/openapi`).send({ slug: 'killed', source: { text } }).expect(201))
    .body.id as string;

  // PDF: two change requests of a one-page space
  const pdfSpace = await newSpace(server, admin, org.id, { title: 'PDF' });
  await api.post(`/v1/spaces/${pdfSpace.id}/content/pages`).send({ title: 'Guide', markdown: 'Text.' }).expect(201);
  const pdfIds: string[] = [];
  for (const subject of ['collected', 'finishing']) {
    const cr = await newChangeRequest(server, admin, pdfSpace.id, { subject });
    await api.get(`/v1/spaces/${pdfSpace.id}/change-requests/${cr.id}/pdf`).expect(202);
    pdfIds.push((await server.ds.manager.findOneByOrFail(PdfExport, { changeRequestId: cr.id })).id);
  }

  await gate.waitFor(3);
  const holds = {
    // the save inserted the version and committed
    save: proxy.hold(statementOn('INSERT INTO `openapi_spec_versions`', specId), 'commit-answer'),
    // the collect step stored the manuscript, then its progress committed
    collect: proxy.hold(
      (sql) =>
        statementOn('UPDATE `pdf_exports` SET `renderGeneration`', pdfIds[0])(sql) &&
        /`renderProgressDone` = 0, `renderProgressTotal` = \d/.test(sql),
      'commit-answer',
    ),
    // the file was saved on the row; the run's end never reaches the database
    finish: proxy.hold(finishStatement(server.ds, pdfExportJob, pdfIds[1])),
    purge: purgeCommitted,
  };
  gate.open();
  for (const [name, hold] of Object.entries(holds))
    await Promise.race([
      hold.reached,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`${name} was not held`)), 60_000)),
    ]);
  // the worker that takes over polls before the kill: the figures are Temporal's retries, not its start-up
  const client = await server.temporal.getClient();
  await polling(client, server.config.temporal.namespace, server.config.temporal.taskQueue, workers.start().pid!);
  const effectsBefore = statements.length;
  worker.kill('SIGKILL');
  await new Promise((resolve) => worker.once('exit', resolve));
  const killedAt = Date.now();
  expect(await server.ds.manager.countBy(Space, { id: spaceId })).toBe(0);
  expect(await server.ds.manager.countBy(OpenAPISpecVersion, { specId })).toBe(1);

  const purgeResult = client.workflow
    .getHandle(jobWorkflowId(spacePurgeJob, spaceId, 1))
    .result()
    .then((outcome) => ({ result: outcome.state === 'done' ? outcome.result : outcome.state, at: Date.now() }));
  const [spec, collected, finished, purge] = await Promise.all([
    jobEnded(server.ds, openapiProcessJob, specId, { timeoutMs: 120_000 }),
    jobEnded(server.ds, pdfExportJob, pdfIds[0], { timeoutMs: 120_000 }),
    jobEnded(server.ds, pdfExportJob, pdfIds[1], { timeoutMs: 120_000 }),
    purgeResult,
  ]);
  const attempts = async (workflowId: string) => describeAttempts(await activityAttempts(client, workflowId), killedAt);
  // biome-ignore lint/suspicious/noConsole: the measured figures, for the record
  console.info(
    [
      'kill -9 between an effect and its completion:',
      `purge, killed after its finish removed the space: ${purge.result} ${purge.at - killedAt} ms after the kill; ${await attempts(jobWorkflowId(spacePurgeJob, spaceId, 1))}`,
      `OpenAPI, killed after its save committed: ${spec.status} ${spec.at - killedAt} ms after the kill; ${await attempts(jobWorkflowId(openapiProcessJob, specId, 1))}`,
      `PDF, killed after its manuscript was stored: ${collected.status} ${collected.at - killedAt} ms after the kill; ${await attempts(jobWorkflowId(pdfExportJob, pdfIds[0], 1))}`,
      `PDF, killed in its finish: ${finished.status} ${finished.at - killedAt} ms after the kill; ${await attempts(jobWorkflowId(pdfExportJob, pdfIds[1], 1))}`,
    ].join('\n  '),
  );
  expect([purge.result, spec.status, collected.status, finished.status]).toEqual([
    'purged',
    'succeeded',
    'succeeded',
    'succeeded',
  ]);

  // what the new worker sent: no delete of the purged space, no second version, no second file saved
  const after = statements.slice(effectsBefore);
  expect(after.filter((sql) => sql.startsWith('DELETE') && sql.includes(spaceId))).toEqual([]);
  expect(after.filter(statementOn('INSERT INTO `openapi_spec_versions`', specId))).toEqual([]);
  expect(after.filter(statementOn('UPDATE `pdf_exports` SET `fileKey`', pdfIds[1]))).toEqual([]);
  expect(statements.filter(statementOn('UPDATE `pdf_exports` SET `fileKey`', pdfIds[0]))).toHaveLength(1);

  // the purge: gone with what only it referenced; its duplicate reads its content and the shared file
  expect(await server.ds.manager.countBy(Revision, { spaceId })).toBe(0);
  expect(await server.ds.manager.countBy(ContentObject, { hash: ownRoot })).toBe(0);
  expect([await stored(blobKey(spaceId, own)), await stored(blobKey(spaceId, shared))]).toEqual([false, true]);
  const pages = (await api.get(`/v1/spaces/${duplicate}/content`).expect(200)).body.pages;
  expect(pages.map((p: { title: string }) => p.title)).toEqual(['Shared page']);

  // OpenAPI: one version, its bundle
  const versions = await server.ds.manager.findBy(OpenAPISpecVersion, { specId });
  expect(versions.map((v) => v.generation)).toEqual([1]);
  expect(await stored(versions[0].filesystemKey)).toBe(true);

  // PDF: one file each, the manuscript removed, the URL answered
  for (const id of pdfIds) {
    const row = await server.ds.manager.findOneByOrFail(PdfExport, { id });
    expect([row.fileKey, await stored(`pdf/${id}/manuscript.json`)]).toEqual([`pdf/${id}/export.pdf`, false]);
    const cr = row.changeRequestId;
    const { body } = await api.get(`/v1/spaces/${pdfSpace.id}/change-requests/${cr}/pdf`).expect(200);
    expect((await download(server, body.url).expect(200)).headers['content-type']).toBe('application/pdf');
  }
});
