/**
 * OpenAPI specifications end to end: the 11 operations over the real API, the openapi-process job on a
 * real worker, documents served by a local HTTP server (loopback is allowed by this test's fetch policy;
 * private and link-local addresses stay refused), and the links of kind `openapi`.
 */
import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import http from 'http';
import type { AddressInfo } from 'net';
import os from 'os';
import path from 'path';
import request from 'supertest';
import { promisify } from 'util';
import type { Head } from '../../domain/content/heads';
import { issueIntegrationTokens } from '../../domain/integrations/tokens';
import { refreshUrlSpecs } from '../../domain/openapi-specs/refresh';
import { loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, listAll, newSpace } from '../support/api';
import { writeHead } from '../support/heads';
import { insertInstallation, insertIntegration } from '../support/integration-rows';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';

const PETSTORE_YAML = `openapi: 3.0.3
info: {title: Petstore, version: "1.0"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: the pets
          content:
            application/json:
              schema: {$ref: "./schemas/pet.yaml#/Pet"}
`;
const PET_YAML = 'Pet:\n  type: object\n  properties:\n    name: {type: string}\n';
const SWAGGER_2 = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Old', version: '1' },
  paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } },
});
const OPENAPI_31 = (title: string) => JSON.stringify({ openapi: '3.1.0', info: { title, version: '1' }, paths: {} });
const BROKEN = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'Broken' },
  paths: { '/a': { get: { responses: 'none' } }, '/b': { get: { responses: 7 } } },
});

/** What the local document server answers, by path; `mutable` can be changed by a test. */
const documents: Record<string, string> = {
  '/petstore.yaml': PETSTORE_YAML,
  '/schemas/pet.yaml': PET_YAML,
  '/v31.json': OPENAPI_31('Three one'),
  '/flaky.json': OPENAPI_31('Flaky'),
  '/broken.json': BROKEN,
  '/ref-to-metadata.yaml':
    'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    X: {$ref: "http://169.254.169.254/latest/meta-data/x.yaml"}\n',
};

/** Requests the document server received, by path. */
const hits: Record<string, number> = {};
/** Paths answering 503 to their first n requests. */
const unavailableFirst: Record<string, number> = { '/flaky.json': 2, '/down.json': Number.POSITIVE_INFINITY };

let docs: http.Server;
let docsBase: string;
let server: TestServer;
let worker: TestWorker;

beforeAll(async () => {
  docs = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits[path] = (hits[path] ?? 0) + 1;
    if (path === '/silent') return; // never answers
    if (hits[path] <= (unavailableFirst[path] ?? 0)) return void res.writeHead(503).end('busy');
    if (path === '/error') return void res.writeHead(500).end('boom');
    const body = documents[path];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': path.endsWith('.json') ? 'application/json' : 'application/yaml' }).end(body);
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  docsBase = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
  const base = loadConfig();
  const short = shortJobRetries(
    privateTaskQueue({
      ...base,
      fetch: { ...base.fetch, allowLoopback: true, connectTimeoutMs: 500, totalTimeoutMs: 1500 },
    }),
  );
  // four attempts per step: a source unavailable twice still completes
  server = await startServer({ ...short, jobs: { ...short.jobs, retry: { ...short.jobs.retry, maximumAttempts: 4 } } });
  worker = await startWorker(server.ds, server.config);
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await server?.close();
  docs.closeAllConnections();
  await new Promise((resolve) => docs.close(resolve));
});

const specPath = (orgId: string, slug = '') => `/v1/orgs/${orgId}/openapi${slug ? `/${slug}` : ''}`;

async function create(fx: OrgFixture, slug: string, source: object): Promise<Json> {
  return (await server.as(fx.admin.token).post(specPath(fx.org.id)).send({ slug, source }).expect(201)).body;
}

/** Polls the spec until its processing is complete. */
async function processed(fx: OrgFixture, slug: string): Promise<Json> {
  for (let i = 0; i < 300; i++) {
    const { body } = await server.as(fx.admin.token).get(specPath(fx.org.id, slug)).expect(200);
    if (body.processingState === 'complete') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${slug} was not processed in time`);
}

describe('creating and processing', () => {
  it('creates from a URL: pending, then complete with a version holding the entry and its referenced file', async () => {
    const fx = await createOrg(server.ds);
    const created = await create(fx, 'petstore', { url: `${docsBase}/petstore.yaml` });
    expect(created).toMatchObject({
      object: 'openapi-spec',
      slug: 'petstore',
      sourceURL: `${docsBase}/petstore.yaml`,
      processingState: 'pending',
      visibility: 'private',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
    });
    expect(created).not.toHaveProperty('lastVersion');
    expect(created).not.toHaveProperty('lastProcessErrorCode');
    expect(created.urls).toEqual({
      location: `${server.config.publicBaseUrl}/v1/orgs/${fx.org.id}/openapi/petstore`,
      app: expect.stringContaining('/openapi/petstore'),
    });

    const done = await processed(fx, 'petstore');
    expect(done).toMatchObject({ processingState: 'complete', lastProcessedErrors: [] });
    expect(done).not.toHaveProperty('lastProcessErrorCode');
    expect(done.lastVersion).toEqual(expect.any(String));
    expect(Date.parse(done.lastProcessedAt)).toBeGreaterThanOrEqual(Date.parse(created.createdAt));

    const versions = await listAll(server, fx.admin, specPath(fx.org.id, 'petstore/versions'));
    expect(versions.ids).toEqual([done.lastVersion]);
    const latest = (await server.as(fx.admin.token).get(specPath(fx.org.id, 'petstore/versions/latest')).expect(200))
      .body;
    expect(latest).toEqual({
      object: 'openapi-spec-version',
      id: done.lastVersion,
      createdAt: expect.any(String),
      url: `${docsBase}/petstore.yaml`,
      urls: {
        location: `${server.config.publicBaseUrl}/v1/orgs/${fx.org.id}/openapi/petstore/versions/${done.lastVersion}`,
      },
    });
    const byId = (
      await server
        .as(fx.admin.token)
        .get(specPath(fx.org.id, `petstore/versions/${done.lastVersion}`))
        .expect(200)
    ).body;
    expect(byId).toEqual(latest);

    const content = (
      await server.as(fx.admin.token).get(specPath(fx.org.id, 'petstore/versions/latest/content')).expect(200)
    ).body;
    expect(content.url).toBe(`${docsBase}/petstore.yaml`);
    expect(content.urls).toEqual({ source: `${docsBase}/petstore.yaml`, public: null });
    expect(Object.keys(content.filesystem).sort()).toEqual(['./schemas/pet.yaml', 'petstore.yaml']);
    expect(content.filesystem['petstore.yaml']).toMatchObject({
      isEntrypoint: true,
      references: ['./schemas/pet.yaml'],
      specification: { info: { title: 'Petstore' } },
    });
    expect(content.filesystem['./schemas/pet.yaml']).toMatchObject({
      isEntrypoint: false,
      specification: { Pet: { type: 'object' } },
    });
    const contentById = (
      await server
        .as(fx.admin.token)
        .get(specPath(fx.org.id, `petstore/versions/${done.lastVersion}/content`))
        .expect(200)
    ).body;
    expect(contentById).toEqual(content);
  });

  it('creates from a text (Swagger 2.0 JSON); the version links the text as submitted', async () => {
    const fx = await createOrg(server.ds);
    const created = await create(fx, 'legacy', { text: SWAGGER_2 });
    expect(created).not.toHaveProperty('sourceURL');
    const done = await processed(fx, 'legacy');
    expect(done).not.toHaveProperty('lastProcessErrorCode');
    const content = (
      await server.as(fx.admin.token).get(specPath(fx.org.id, 'legacy/versions/latest/content')).expect(200)
    ).body;
    expect(content.filesystem['openapi.json'].specification).toEqual(JSON.parse(SWAGGER_2));
    const download = new URL(content.url);
    const text = await request(server.app).get(`${download.pathname}${download.search}`).expect(200);
    expect(text.text ?? text.body.toString()).toBe(SWAGGER_2);
  });

  it('PUT creates (201), then replaces (200) with a new version; an unchanged source adds none', async () => {
    const fx = await createOrg(server.ds);
    const first = await server
      .as(fx.admin.token)
      .put(specPath(fx.org.id, 'api'))
      .send({ source: { text: OPENAPI_31('One') } })
      .expect(201);
    expect(first.headers.location).toBe(first.body.urls.location);
    const v1 = (await processed(fx, 'api')).lastVersion;
    const second = await server
      .as(fx.admin.token)
      .put(specPath(fx.org.id, 'api'))
      .send({ source: { text: 'openapi: 3.1.0\ninfo: {title: Two, version: "1"}\npaths: {}\n' } })
      .expect(200);
    expect(second.body).toMatchObject({ id: first.body.id, processingState: 'pending', lastVersion: v1 });
    const afterReplace = await processed(fx, 'api');
    expect(afterReplace.lastVersion).not.toBe(v1);
    const content = (
      await server.as(fx.admin.token).get(specPath(fx.org.id, 'api/versions/latest/content')).expect(200)
    ).body;
    expect(content.filesystem['openapi.yaml'].specification.info.title).toBe('Two');

    await server
      .as(fx.admin.token)
      .put(specPath(fx.org.id, 'api'))
      .send({ source: { text: 'openapi: 3.1.0\ninfo: {title: Two, version: "1"}\npaths: {}\n' } })
      .expect(200);
    const unchanged = await processed(fx, 'api');
    expect(unchanged.lastVersion).toBe(afterReplace.lastVersion);
    expect((await listAll(server, fx.admin, specPath(fx.org.id, 'api/versions'))).ids).toEqual([
      afterReplace.lastVersion,
      v1,
    ]);
  });

  it('the refresh re-processes URL specs: unchanged content adds no version, changed content does', async () => {
    const fx = await createOrg(server.ds);
    documents['/mutable.json'] = OPENAPI_31('Before');
    await create(fx, 'mutable', { url: `${docsBase}/mutable.json` });
    const before = await processed(fx, 'mutable');
    // as the Schedule's activity runs it: the runs start as each request commits
    const refresh = () => refreshUrlSpecs(server, { organizationId: fx.org.id, now: new Date() });

    expect(await refresh()).toBe(1);
    const same = await processed(fx, 'mutable');
    expect(same.lastVersion).toBe(before.lastVersion);
    expect(Date.parse(same.lastProcessedAt)).toBeGreaterThan(Date.parse(before.lastProcessedAt));

    documents['/mutable.json'] = OPENAPI_31('After');
    expect(await refresh()).toBe(1);
    const changed = await processed(fx, 'mutable');
    expect(changed.lastVersion).not.toBe(before.lastVersion);
    expect((await listAll(server, fx.admin, specPath(fx.org.id, 'mutable/versions'))).ids).toHaveLength(2);
  });
});

describe('failures recorded on the spec', () => {
  async function failed(fx: OrgFixture, slug: string, url: string): Promise<Json> {
    await create(fx, slug, { url });
    return processed(fx, slug);
  }

  it('FETCH_TIMEOUT from a server that never answers', async () => {
    const fx = await createOrg(server.ds);
    const spec = await failed(fx, 'silent', `${docsBase}/silent`);
    expect(spec).toMatchObject({
      lastProcessErrorCode: 'FETCH_TIMEOUT',
      lastProcessedErrorCount: 1,
    });
    expect(spec).not.toHaveProperty('lastVersion');
    expect(spec.lastProcessedErrors[0]).toEqual({
      message: expect.stringContaining('no complete answer'),
      code: 'timeout',
    });
    expect(hits['/silent']).toBe(4); // recorded once every attempt timed out
  });

  it('a source answering 503 twice, then 200, ends complete with a version, not FETCH_ERROR', async () => {
    const fx = await createOrg(server.ds);
    const spec = await failed(fx, 'unavailable-twice', `${docsBase}/flaky.json`);
    expect(spec).toMatchObject({ processingState: 'complete', lastProcessedErrorCount: 0 });
    expect(spec).not.toHaveProperty('lastProcessErrorCode');
    expect(spec.lastVersion).toEqual(expect.any(String));
    expect(hits['/flaky.json']).toBe(3);
  });

  it('a 404 fails FETCH_ERROR at once (one attempt); a 503 that lasts fails FETCH_ERROR once every attempt is spent', async () => {
    const fx = await createOrg(server.ds);
    const missing = await failed(fx, 'missing', `${docsBase}/missing.json`);
    expect(missing).toMatchObject({
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessedErrors: [{ message: expect.stringContaining('HTTP 404'), code: 'status' }],
    });
    expect(hits['/missing.json']).toBe(1);
    const down = await failed(fx, 'down', `${docsBase}/down.json`);
    expect(down).toMatchObject({
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessedErrors: [{ message: expect.stringContaining('HTTP 503'), code: 'status' }],
    });
    expect(hits['/down.json']).toBe(4);
  });

  it('FETCH_ERROR from a 500 and from refused addresses (10.0.0.1, 169.254.169.254, an external $ref to it); the recorded error says only that the destination is not allowed or could not be reached', async () => {
    const fx = await createOrg(server.ds);
    const status = await failed(fx, 'five-hundred', `${docsBase}/error`);
    expect(status).toMatchObject({
      lastProcessErrorCode: 'FETCH_ERROR',
      lastProcessedErrors: [{ message: expect.stringContaining('HTTP 500'), code: 'status' }],
    });
    for (const [slug, url] of [
      ['private', 'http://10.0.0.1/openapi.json'],
      ['metadata', 'http://169.254.169.254/latest/meta-data/'],
    ]) {
      const spec = await failed(fx, slug, url);
      expect(spec).toMatchObject({
        lastProcessErrorCode: 'FETCH_ERROR',
        lastProcessedErrors: [
          { message: `${url}: the destination is not allowed or could not be reached`, code: 'unreachable' },
        ],
      });
      expect(JSON.stringify(spec.lastProcessedErrors)).not.toMatch(/refused destination|linkLocal|private address/);
    }
    const ref = await failed(fx, 'bad-ref', `${docsBase}/ref-to-metadata.yaml`);
    expect(ref.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(ref.lastProcessedErrors[0].message).toContain('169.254.169.254');
    expect(ref.lastProcessedErrors[0].message).toMatch(/: the destination is not allowed or could not be reached$/);
  });

  it('PARSE_ERROR lists every problem; a failed run keeps the previous version', async () => {
    const fx = await createOrg(server.ds);
    await create(fx, 'flaky', { text: OPENAPI_31('Good') });
    const good = await processed(fx, 'flaky');
    await server
      .as(fx.admin.token)
      .put(specPath(fx.org.id, 'flaky'))
      .send({ source: { text: BROKEN } })
      .expect(200);
    const bad = await processed(fx, 'flaky');
    expect(bad).toMatchObject({
      lastProcessErrorCode: 'PARSE_ERROR',
      lastVersion: good.lastVersion,
      lastProcessedErrorCount: 2,
    });
    expect(bad.lastProcessedErrors).toEqual([
      { message: expect.stringContaining('/paths/~1a/get/responses'), code: 'invalid' },
      { message: expect.stringContaining('/paths/~1b/get/responses'), code: 'invalid' },
    ]);
    await server
      .as(fx.admin.token)
      .put(specPath(fx.org.id, 'flaky'))
      .send({ source: { text: 'openapi: 3.0.0\n  info: [\n' } })
      .expect(200);
    const yaml = await processed(fx, 'flaky');
    expect(yaml).toMatchObject({
      lastProcessErrorCode: 'PARSE_ERROR',
      lastVersion: good.lastVersion,
      lastProcessedErrors: [{ code: 'yaml-parse', message: expect.any(String) }],
    });
  });
});

describe('visibility, deletion and links', () => {
  it('a public spec is readable by anyone at urls.published; a private one is not', async () => {
    const fx = await createOrg(server.ds);
    await create(fx, 'open', { text: OPENAPI_31('Open') });
    const done = await processed(fx, 'open');
    const published = `/v1/published/openapi/${fx.org.id}/open`;
    await request(server.app).get(published).expect(404);
    const patched = (
      await server.as(fx.admin.token).patch(specPath(fx.org.id, 'open')).send({ visibility: 'public' }).expect(200)
    ).body;
    expect(patched.urls.published).toBe(`${server.config.publicBaseUrl}${published}`);
    expect((await request(server.app).get(published).expect(200)).body.info.title).toBe('Open');
    expect(
      (await request(server.app).get(`${published}/versions/${done.lastVersion}`).expect(200)).body.info.title,
    ).toBe('Open');
    const content = (
      await server.as(fx.admin.token).get(specPath(fx.org.id, 'open/versions/latest/content')).expect(200)
    ).body;
    expect(content.urls.public).toBe(`${server.config.publicBaseUrl}${published}/versions/${done.lastVersion}`);
    await server.as(fx.admin.token).patch(specPath(fx.org.id, 'open')).send({ visibility: 'private' }).expect(200);
    await request(server.app).get(published).expect(404);
  });

  it('DELETE answers 204 (also for no such slug) and removes the versions', async () => {
    const fx = await createOrg(server.ds);
    await create(fx, 'gone', { text: OPENAPI_31('Gone') });
    await processed(fx, 'gone');
    await server.as(fx.admin.token).delete(specPath(fx.org.id, 'gone')).expect(204);
    await server.as(fx.admin.token).delete(specPath(fx.org.id, 'gone')).expect(204);
    await server.as(fx.admin.token).get(specPath(fx.org.id, 'gone')).expect(404);
    await server.as(fx.admin.token).get(specPath(fx.org.id, 'gone/versions')).expect(404);
    // the slug is free again
    await create(fx, 'gone', { text: OPENAPI_31('Again') });
  });

  it('links of kind openapi are ok while the organization has the spec, broken otherwise', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const head: Head = { kind: 'space', spaceId: space.id };
    await writeHead(server, head, fx.admin.user.id, (e) =>
      e.createPage({ title: 'Ref', markdown: '[API](openapi:payments)\n\n[Other](openapi:nothing)' }),
    );
    const statuses = async () =>
      (await listAll(server, fx.admin, `/v1/spaces/${space.id}/links`)).items.map((l) => [
        l.target?.slug ?? l.target?.spec ?? JSON.stringify(l.target),
        l.status,
      ]);
    const brokenBoth = await statuses();
    expect(brokenBoth.map((s) => s[1])).toEqual(['broken', 'broken']);
    await create(fx, 'payments', { text: OPENAPI_31('Payments') });
    expect((await statuses()).map((s) => s[1])).toEqual(['ok', 'broken']);
    await server.as(fx.admin.token).delete(specPath(fx.org.id, 'payments')).expect(204);
    expect((await statuses()).map((s) => s[1])).toEqual(['broken', 'broken']);
  });
});

describe('validation and access', () => {
  it('answers 400 naming the field', async () => {
    const fx = await createOrg(server.ds);
    const post = (body: object) => server.as(fx.admin.token).post(specPath(fx.org.id)).send(body).expect(400);
    expect((await post({ source: { text: 'x' } })).body.error.message).toBe('slug: is required');
    expect((await post({ slug: 'Bad_Slug', source: { text: 'x' } })).body.error.message).toMatch(
      /^slug: must be lowercase/,
    );
    expect((await post({ slug: 'a'.repeat(101), source: { text: 'x' } })).body.error.message).toBe(
      'slug: must be at most 100 characters',
    );
    expect((await post({ slug: 'ok' })).body.error.message).toBe('source: is required');
    expect((await post({ slug: 'ok', source: {} })).body.error.message).toBe(
      'source: must have exactly one of url, text',
    );
    expect((await post({ slug: 'ok', source: { url: 'http://x.test/a', text: 'y' } })).body.error.message).toBe(
      'source: must have exactly one of url, text',
    );
    expect((await post({ slug: 'ok', source: { url: 'file:///etc/passwd' } })).body.error.message).toBe(
      'source.url: must be an http or https URL',
    );
    expect((await post({ slug: 'ok', source: { url: 'not a url' } })).body.error.message).toBe(
      'source.url: must be a valid url',
    );
    expect((await post({ slug: 'ok', source: { text: '' } })).body.error.message).toBe(
      'source.text: must be at least 1 character',
    );
    expect((await post({ slug: 'ok', source: { text: 'x' }, extra: 1 })).body.error.message).toBe(
      'extra: unknown field; accepted: slug, source',
    );
    await create(fx, 'taken', { text: OPENAPI_31('T') });
    expect(
      (
        await server
          .as(fx.admin.token)
          .post(specPath(fx.org.id))
          .send({ slug: 'taken', source: { text: 'x' } })
          .expect(409)
      ).body.error.message,
    ).toMatch(/^slug: "taken" is already used/);
    expect(
      (
        await server
          .as(fx.admin.token)
          .put(specPath(fx.org.id, 'Not_A_Slug'))
          .send({ source: { text: 'x' } })
          .expect(400)
      ).body.error.message,
    ).toMatch(/^specSlug: must be lowercase/);
    expect(
      (await server.as(fx.admin.token).put(specPath(fx.org.id, 'taken')).send({}).expect(400)).body.error.message,
    ).toBe('source: is required');
    expect(
      (await server.as(fx.admin.token).patch(specPath(fx.org.id, 'taken')).send({ visibility: 'everyone' }).expect(400))
        .body.error.message,
    ).toBe('visibility: must be one of private, public');
    expect(
      (await server.as(fx.admin.token).get(specPath(fx.org.id, 'taken/versions')).query({ limit: 'x' }).expect(400))
        .body.error.message,
    ).toBe('limit: must be an integer');
  });

  it('401 without a token, 404 for another organization, 403 for a read member on writes', async () => {
    const fx = await createOrg(server.ds);
    const other = await createOrg(server.ds);
    await create(fx, 'guarded', { text: OPENAPI_31('G') });
    const version = (await processed(fx, 'guarded')).lastVersion;
    const reader = await addMember(server.ds, fx.org, 'read');
    const reads = [
      '',
      '/guarded',
      '/guarded/versions',
      '/guarded/versions/latest',
      '/guarded/versions/latest/content',
      `/guarded/versions/${version}`,
      `/guarded/versions/${version}/content`,
    ];
    for (const path of reads) {
      await request(server.app)
        .get(`${specPath(fx.org.id)}${path}`)
        .expect(401);
      expect(
        (
          await server
            .as(other.admin.token)
            .get(`${specPath(fx.org.id)}${path}`)
            .expect(404)
        ).body.error.message,
      ).toBe('organization not found');
      await server
        .as(reader.token)
        .get(`${specPath(fx.org.id)}${path}`)
        .expect(200);
    }
    const writes: Array<[string, string, object]> = [
      ['post', '', { slug: 'new-one', source: { text: 'x' } }],
      ['put', '/guarded', { source: { text: 'x' } }],
      ['put', '/brand-new', { source: { text: 'x' } }],
      ['patch', '/guarded', { visibility: 'public' }],
      ['delete', '/guarded', {}],
    ];
    for (const [method, path, body] of writes) {
      const url = `${specPath(fx.org.id)}${path}`;
      await (request(server.app) as any)[method](url).send(body).expect(401);
      // a DELETE of what the caller may not see answers 204 and changes nothing
      await (server.as(other.admin.token) as any)
        [method](url)
        .send(body)
        .expect(method === 'delete' ? 204 : 404);
      const denied = await (server.as(reader.token) as any)[method](url).send(body).expect(403);
      expect(denied.body.error.message).toMatch(/createOpenAPISpec|edit/);
    }
    const spec = (await server.as(reader.token).get(specPath(fx.org.id, 'guarded')).expect(200)).body;
    expect(spec.permissions).toEqual({ view: true, edit: false });
    await server.as(fx.admin.token).get(specPath(fx.org.id, 'unknown')).expect(404);
    await server.as(fx.admin.token).get(specPath(fx.org.id, 'guarded/versions/nosuchversion')).expect(404);
  });
});

describe('specs are for full members and tokens with an openapi scope', () => {
  it('a guest, and an installation token without an openapi scope, get 404 and an empty list; openapi:read reads', async () => {
    const fx = await createOrg(server.ds);
    await create(fx, 'private-spec', { text: OPENAPI_31('Private') });
    const version = (await processed(fx, 'private-spec')).lastVersion;
    const guest = await addMember(server.ds, fx.org, null);
    const developer = await createOrg(server.ds);
    const tokenWith = async (scopes: string[]) => {
      const integration = await insertIntegration(server.ds, developer.org.id, scopes);
      const installation = await insertInstallation(server.ds, integration, fx.org.id);
      const tokens = await inTransaction(server.ds, (db) =>
        issueIntegrationTokens(db, { integrationTokenTtlSeconds: 600 }, { integration, installation }),
      );
      return tokens.installation!;
    };
    const unscoped = await tokenWith([]);
    const reader = await tokenWith(['openapi:read']);
    const reads = [
      '/private-spec',
      '/private-spec/versions',
      '/private-spec/versions/latest',
      '/private-spec/versions/latest/content',
      `/private-spec/versions/${version}`,
      `/private-spec/versions/${version}/content`,
    ];
    for (const token of [guest.token, unscoped]) {
      expect((await server.as(token).get(specPath(fx.org.id)).expect(200)).body).toEqual({ items: [], count: 0 });
      for (const path of reads) {
        const denied = await server
          .as(token)
          .get(`${specPath(fx.org.id)}${path}`)
          .expect(404);
        expect(denied.body.error.message).toBe('OpenAPI specification not found');
      }
    }
    const listed = (await server.as(reader).get(specPath(fx.org.id)).expect(200)).body;
    expect(listed.items.map((s: Json) => s.slug)).toEqual(['private-spec']);
    for (const path of reads)
      await server
        .as(reader)
        .get(`${specPath(fx.org.id)}${path}`)
        .expect(200);
    // and nothing of the spec to a guest's writes either
    await server.as(guest.token).patch(specPath(fx.org.id, 'private-spec')).send({ visibility: 'public' }).expect(404);
  });
});

describe("GitBook's own CLI (@gitbook/cli)", () => {
  it('`gitbook openapi publish` publishes a file, then updates it, and publishes a URL', async () => {
    const fx = await createOrg(server.ds);
    const listening = server.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    const home = await fs.mkdtemp(path.join(os.tmpdir(), 'gitbook-cli-'));
    try {
      const endpoint = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
      const cli = require.resolve('@gitbook/cli/cli.js');
      // the CLI reads its endpoint and token from these variables; HOME keeps its config file out of ours
      const env = {
        ...process.env,
        GITBOOK_ENDPOINT: endpoint,
        GITBOOK_TOKEN: fx.admin.token,
        HOME: home,
        XDG_CONFIG_HOME: home,
      };
      const publish = (what: string) =>
        promisify(execFile)(
          process.execPath,
          [cli, 'openapi', 'publish', '--spec', 'from-cli', '--organization', fx.org.id, what],
          { env, cwd: home, timeout: 60000 },
        );

      const file = path.join(home, 'openapi.yaml');
      await fs.writeFile(file, 'openapi: 3.1.0\ninfo: {title: CLI one, version: "1"}\npaths: {}\n');
      const first = await publish(file);
      expect(first.stdout).toContain('OpenAPI specification "from-cli" published to https://');
      const v1 = (await processed(fx, 'from-cli')).lastVersion;
      expect(v1).toEqual(expect.any(String));

      await fs.writeFile(file, 'openapi: 3.1.0\ninfo: {title: CLI two, version: "1"}\npaths: {}\n');
      await publish(file);
      const updated = await processed(fx, 'from-cli');
      expect(updated.lastVersion).not.toBe(v1);
      const content = (
        await server.as(fx.admin.token).get(specPath(fx.org.id, 'from-cli/versions/latest/content')).expect(200)
      ).body;
      expect(content.filesystem['openapi.yaml'].specification.info.title).toBe('CLI two');

      await publish(`${docsBase}/v31.json`);
      const fromUrl = await processed(fx, 'from-cli');
      expect(fromUrl).toMatchObject({ sourceURL: `${docsBase}/v31.json` });
      expect(fromUrl).not.toHaveProperty('lastProcessErrorCode');
      expect((await listAll(server, fx.admin, specPath(fx.org.id, 'from-cli/versions'))).ids).toHaveLength(3);
    } finally {
      await new Promise((resolve) => listening.close(resolve));
      await fs.rm(home, { recursive: true, force: true });
    }
  });
});
