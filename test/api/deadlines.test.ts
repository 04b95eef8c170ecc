/**
 * Deadlines and readiness. The API reaches MariaDB through a TCP proxy in the test process
 * (test/support/tcp-proxy.ts) that holds one statement, or freezes the database (connections open,
 * nothing answers: as MariaDB stopped with SIGSTOP). A request answers 503 with Retry-After at its
 * deadline and writes nothing; /readyz answers 503 within 2 s; both serve again once the database
 * answers. A wait the request chooses (a job's result) moves its deadline. The API as a process answers /readyz 503 on SIGTERM before it drains.
 */
import { spawn } from 'child_process';
import path from 'path';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { PdfExport } from '../../entities/PdfExport';
import { Space } from '../../entities/Space';
import { loadConfig } from '../../platform/config';
import { createDataSource } from '../../platform/db/data-source';
import { createOrg, unique } from '../factories';
import { newChangeRequest, newSpace } from '../support/api';
import { startServer, TestServer } from '../support/server';
import { TcpProxy } from '../support/tcp-proxy';
import { freePort } from '../support/worker-process';

const REQUEST_TIMEOUT_MS = 2000;
const PDF_WAIT_SECONDS = 3;
const base = loadConfig();
let proxy: TcpProxy;
let server: TestServer;
/** Straight to MariaDB, past the proxy. */
let direct: DataSource;

beforeAll(async () => {
  proxy = await new TcpProxy({ host: base.mysql.host, port: base.mysql.port }).start();
  server = await startServer({
    mysql: { ...base.mysql, port: proxy.port },
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    // no worker polls it: a PDF waits its PDF_WAIT_SECONDS, then answers 202
    temporal: { ...base.temporal, taskQueue: unique('test-deadlines-') },
    pdf: { ...base.pdf, waitSeconds: PDF_WAIT_SECONDS },
  });
  direct = await createDataSource(base).initialize();
});

afterAll(async () => {
  proxy?.thaw();
  await server?.close();
  await proxy?.close();
  await direct?.destroy();
});

/** The answer and how long it took. */
async function timed(test: request.Test): Promise<{ res: request.Response; ms: number }> {
  const start = Date.now();
  const res = await test;
  return { res, ms: Date.now() - start };
}

it('a request whose statement hangs answers 503 with Retry-After at its deadline, and writes nothing', async () => {
  const { org, admin } = await createOrg(direct);
  const title = unique('Held ');
  const held = proxy.hold((sql) => sql.startsWith('INSERT INTO `spaces`') && sql.includes(title));
  const { res, ms } = await timed(server.as(admin.token).post(`/v1/orgs/${org.id}/spaces`).send({ title }));
  expect([res.status, res.headers['retry-after'], res.body.error.code]).toEqual([503, '5', 503]);
  expect(held.isReached).toBe(true);
  expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
  expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1500);
  // its connection was closed at the deadline: the transaction rolled back, the statement never runs
  held.release();
  await server.as(admin.token).get(`/v1/orgs/${org.id}/spaces`).expect(200);
  await new Promise((r) => setTimeout(r, 500));
  expect(await direct.manager.countBy(Space, { title })).toBe(0);
});

it('a frozen database: /readyz answers 503 within 2 s, a request 503 at its deadline; both serve again once it answers', async () => {
  const { org, admin } = await createOrg(direct);
  const ready = await request(server.app).get('/readyz').expect(200);
  expect(ready.body.checks).toEqual({ mysql: true, temporal: true, blobs: true });

  proxy.freeze();
  const probe = await timed(request(server.app).get('/readyz'));
  expect([probe.res.status, probe.res.body.checks]).toEqual([503, { mysql: false, temporal: true, blobs: true }]);
  expect(probe.ms).toBeLessThan(2000);
  const list = await timed(server.as(admin.token).get(`/v1/orgs/${org.id}/spaces`));
  expect([list.res.status, list.res.headers['retry-after']]).toEqual([503, '5']);
  expect(list.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1500);
  // biome-ignore lint/suspicious/noConsole: the measured figures, for the record
  console.info(
    `frozen database: /readyz 503 in ${probe.ms} ms, a request 503 in ${list.ms} ms (REQUEST_TIMEOUT_MS ${REQUEST_TIMEOUT_MS})`,
  );

  proxy.thaw();
  await request(server.app).get('/readyz').expect(200);
  await server.as(admin.token).get(`/v1/orgs/${org.id}/spaces`).expect(200);
});

it('a wait the request chooses for its job (PDF_WAIT_SECONDS) moves its deadline', async () => {
  const { org, admin } = await createOrg(direct);
  const space = await newSpace(server, admin, org.id);
  const cr = await newChangeRequest(server, admin, space.id);
  const { res, ms } = await timed(server.as(admin.token).get(`/v1/spaces/${space.id}/change-requests/${cr.id}/pdf`));
  expect(res.status).toBe(202);
  expect(ms).toBeGreaterThanOrEqual(PDF_WAIT_SECONDS * 1000);
  // the run no worker took
  const { id } = await direct.manager.findOneByOrFail(PdfExport, { changeRequestId: cr.id });
  await (await server.temporal.getClient()).workflow.getHandle(`pdf-export/${id}/1`).terminate();
});

it('on SIGTERM the API answers /readyz 503 before it drains, then exits', async () => {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const api = spawn(process.execPath, [path.join(__dirname, '..', '..', 'dist', 'api', 'server.js')], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
      API_SHUTDOWN_DELAY_SECONDS: '1',
    },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => api.once('exit', resolve));
  const readyz = () =>
    fetch(`http://127.0.0.1:${port}/readyz`).then(
      async (res) => ({ status: res.status, body: await res.json() }),
      () => null,
    );
  for (
    const deadline = Date.now() + 30_000;
    (await readyz())?.status !== 200;
    await new Promise((r) => setTimeout(r, 100))
  )
    if (Date.now() > deadline) throw new Error('the API did not become ready');
  api.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  // still serving, not ready: the load balancer takes it out before the drain
  expect(await readyz()).toEqual({
    status: 503,
    body: { status: 'draining', checks: { mysql: true, temporal: true, blobs: true } },
  });
  expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  expect(await exited).toBe(0);
});
