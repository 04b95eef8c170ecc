/**
 * `Idempotency-Key` on what a client retries most: an import (a job on a real worker, from a local website), and a
 * request that failed with 5xx, whose key is given back so that the retry runs afresh.
 */
import { randomBytes } from 'crypto';
import { ImportRun } from '../../entities/ImportRun';
import { loadConfig } from '../../platform/config';
import { createOrg } from '../factories';
import { newSpace } from '../support/api';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';
import { startWebsite, Website } from '../support/website';

const newKey = () => `key-${randomBytes(8).toString('hex')}`;

let site: Website;
let server: TestServer;
let worker: TestWorker;

beforeAll(async () => {
  site = await startWebsite({
    pages: 1,
    files: { '/docs/notes.md': { type: 'text/markdown', body: '# Notes\n\nNothing yet.\n' } },
  });
  const base = loadConfig();
  const config = shortJobRetries(
    privateTaskQueue({
      ...base,
      fetch: { ...base.fetch, allowLoopback: true },
      imports: { ...base.imports, waitSeconds: 20 },
      // a request waiting on a lock past this answers 503 (the deadline)
      requestTimeoutMs: 1500,
    }),
  );
  server = await startServer(config);
  worker = await startWorker(server.ds, server.config);
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await server?.close();
  await site?.close();
});

it('starts exactly one import run for a retried import request with a key, which gets the first answer again', async () => {
  const fx = await createOrg(server.ds);
  const space = await newSpace(server, fx.admin, fx.org.id);
  const key = newKey();
  const body = { url: `${site.base}/docs/notes.md`, source: 'markdown' };
  const importNotes = (withKey = true) => {
    const req = server.as(fx.admin.token).post(`/v1/spaces/${space.id}/content/import`);
    return (withKey ? req.set('Idempotency-Key', key) : req).send(body);
  };
  const first = await importNotes().expect(201);
  expect(first.headers['idempotent-replayed']).toBeUndefined();
  const retried = await importNotes().expect(201);
  expect(retried.headers['idempotent-replayed']).toBe('true');
  expect(retried.text).toBe(first.text);
  expect(retried.headers.location).toBe(first.headers.location);
  expect(await server.ds.manager.countBy(ImportRun, { spaceId: space.id })).toBe(1);
  // the same request without the key is a new import: the key is what kept the retry from running again
  await importNotes(false).expect(201);
  expect(await server.ds.manager.countBy(ImportRun, { spaceId: space.id })).toBe(2);
});

it('gives the key back when the request fails with 5xx: the retry runs afresh and is answered on its own', async () => {
  const fx = await createOrg(server.ds);
  const space = await newSpace(server, fx.admin, fx.org.id, { title: 'Before' });
  const key = newKey();
  const rename = () =>
    server.as(fx.admin.token).patch(`/v1/spaces/${space.id}`).set('Idempotency-Key', key).send({ title: 'After' });

  // another transaction holds the space's row: the rename waits on it past the deadline and answers 503
  const holder = server.ds.createQueryRunner();
  await holder.connect();
  await holder.startTransaction();
  try {
    await holder.query('SELECT id FROM spaces WHERE id = ? FOR UPDATE', [space.id]);
    const failed = await rename().expect(503);
    expect(failed.headers['retry-after']).toBeDefined();
  } finally {
    await holder.rollbackTransaction();
    await holder.release();
  }

  const retried = await rename().expect(200);
  expect(retried.headers['idempotent-replayed']).toBeUndefined();
  expect(retried.body.title).toBe('After');
  // and that answer, a 2xx, is the one kept for the key
  const again = await rename().expect(200);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.text).toBe(retried.text);
});
