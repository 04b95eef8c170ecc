/**
 * Heartbeats and cancellation of long activities, and the bundles runs leave behind
 * (§4), on the openapi-process job: its bundling fetches the source through the guarded client from a
 * local server that answers when told, with a fetch timeout far longer than the test, so only the
 * cancel can stop it.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import pino from 'pino';
import { newId } from '../../domain/ids';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { applyJobTicket } from '../../domain/jobs/job-start';
import { specBundleKey } from '../../domain/openapi-specs/blob-keys';
import { openapiProcessJob } from '../../domain/openapi-specs/process-job';
import { createSpec, lockSpecBySlug, replaceSpecSource, storeSourceText } from '../../domain/openapi-specs/specs';
import { OpenAPISpec } from '../../entities/OpenAPISpec';
import { loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { createBlobStore } from '../../platform/storage';
import type { BlobStore } from '../../platform/storage/blob-store';
import { TemporalGateway } from '../../platform/temporal/gateway';
import { createOrg, OrgFixture } from '../factories';
import { heldBack } from '../support/held-back';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';

const VALID = (title: string) => `openapi: 3.1.0\ninfo: {title: ${title}, version: "1"}\npaths: {}\n`;
const logger = pino({ level: 'silent' });

/** Requests the source server holds, by path: answer one with `answer`, or see it closed. */
const pending = new Map<string, { answer(body: string): void; closed: Promise<number> }>();
const arrived = new Map<string, () => void>();
let source: http.Server;
let sourceBase: string;
let server: TestServer;
let worker: TestWorker;
let blobs: BlobStore;

beforeAll(async () => {
  source = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const closed = new Promise<number>((resolve) => res.once('close', () => resolve(Date.now())));
    pending.set(path, {
      answer: (body) => res.writeHead(200, { 'Content-Type': 'application/yaml' }).end(body),
      closed,
    });
    arrived.get(path)?.();
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceBase = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  const base = loadConfig();
  server = await startServer(
    shortJobRetries(
      privateTaskQueue({ ...base, fetch: { ...base.fetch, allowLoopback: true, totalTimeoutMs: 120_000 } }),
    ),
  );
  worker = await startWorker(server.ds, server.config);
  blobs = createBlobStore(server.config);
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await server?.close();
  source.closeAllConnections();
  await new Promise((resolve) => source.close(resolve));
});

function requested(path: string): Promise<void> {
  return new Promise((resolve) => arrived.set(path, resolve));
}

async function createFromUrl(fx: OrgFixture, slug: string, path: string): Promise<string> {
  const id = newId();
  const ticket = await inTransaction(heldBack(server.ds), (db) =>
    createSpec(db, {
      id,
      organizationId: fx.org.id,
      slug,
      source: { url: `${sourceBase}${path}` },
      createdById: fx.admin.user.id,
    }),
  );
  await applyJobTicket(server.temporal, server.ds.manager, ticket, logger);
  return id;
}

/** A new source as PUT gives it; `cancel: false` leaves out the cancel of the old run (lost, or not yet sent). */
async function replaceSource(fx: OrgFixture, slug: string, specId: string, cancel: boolean): Promise<void> {
  const textKey = await storeSourceText(blobs, specId, VALID(`${slug} again`));
  const ticket = await inTransaction(heldBack(server.ds), async (db) =>
    replaceSpecSource(db, (await lockSpecBySlug(db, fx.org.id, slug))!, { textKey }),
  );
  await applyJobTicket(server.temporal, server.ds.manager, cancel ? ticket : { ...ticket, superseded: null }, logger);
}

async function closedRun(temporal: TemporalGateway, specId: string, generation: number) {
  const handle = (await temporal.getClient()).workflow.getHandle(jobWorkflowId(openapiProcessJob, specId, generation));
  await handle.result().catch(() => undefined);
  return handle.describe();
}

const stored = (key: string) =>
  blobs.read(key).then(
    () => true,
    () => false,
  );

describe('heartbeats and cancellation', () => {
  it('a cancel reaches a bundling that waits on a slow source: its fetch is aborted within seconds', async () => {
    const fx = await createOrg(server.ds);
    const arrival = requested('/slow-1.yaml');
    const specId = await createFromUrl(fx, 'slow', '/slow-1.yaml');
    await arrival;
    const cancelledAt = Date.now();
    // a PUT: a new generation, and the cancel of the run under way
    await replaceSource(fx, 'slow', specId, true);
    const abortedAt = await pending.get('/slow-1.yaml')!.closed;
    const closed = await closedRun(server.temporal, specId, 1);
    // a heartbeat's answer brings the cancel: at most 1.6 s (80% of this test's 2 s heartbeat timeout) apart
    expect(abortedAt - cancelledAt).toBeLessThan(5000);
    expect(closed.status.name).toBe('CANCELLED');
    expect(await stored(specBundleKey(specId, 1))).toBe(false);
    const next = await closedRun(server.temporal, specId, 2);
    expect(next.status.name).toBe('COMPLETED');
    expect((await server.ds.manager.findOneByOrFail(OpenAPISpec, { id: specId })).lastVersionId).not.toBeNull();
  }, 60000);
});

describe('bundles of runs that saved no version', () => {
  it('a superseded run removes the bundle it stored', async () => {
    const fx = await createOrg(server.ds);
    const arrival = requested('/slow-2.yaml');
    const specId = await createFromUrl(fx, 'superseded', '/slow-2.yaml');
    await arrival;
    // the new source without the cancel: the old run bundles, stores its bundle, and its save finds it superseded
    await replaceSource(fx, 'superseded', specId, false);
    pending.get('/slow-2.yaml')!.answer(VALID('Superseded'));
    const closed = await closedRun(server.temporal, specId, 1);
    expect(closed.status.name).toBe('COMPLETED'); // a superseded run ends quietly
    expect(await stored(specBundleKey(specId, 1))).toBe(false);
    await closedRun(server.temporal, specId, 2);
    expect(await stored(specBundleKey(specId, 2))).toBe(true); // the version's bundle stays
  }, 60000);

  it('a failed run removes the bundle it stored', async () => {
    // a worker of its own, whose clock breaks both attempts of the save (an invalid time is refused by the database)
    const config = privateTaskQueue(server.config);
    const temporal = new TemporalGateway(config);
    let calls = 0;
    const failing = await startWorker(server.ds, config, {
      clock: () => (++calls === 2 || calls === 3 ? new Date(Number.NaN) : new Date()),
    });
    try {
      const fx = await createOrg(server.ds);
      const id = newId();
      const textKey = await storeSourceText(blobs, id, VALID('Failing'));
      const ticket = await inTransaction(heldBack(server.ds), (db) =>
        createSpec(db, {
          id,
          organizationId: fx.org.id,
          slug: 'failing',
          source: { textKey },
          createdById: fx.admin.user.id,
        }),
      );
      await applyJobTicket(temporal, server.ds.manager, ticket, logger);
      const closed = await closedRun(temporal, id, 1);
      expect(closed.status.name).toBe('FAILED');
      const spec = await server.ds.manager.findOneByOrFail(OpenAPISpec, { id });
      expect(spec.process.errorCode).toBe('JOB_FAILED');
      expect(spec.lastVersionId).toBeNull();
      expect(await stored(specBundleKey(id, 1))).toBe(false);
    } finally {
      await failing.stop();
      await temporal.close();
    }
  }, 60000);
});
