/**
 * End to end: YAML alias bombs and oversized bundles are refused by the openapi-process job
 * on a real worker, and a stored bundle over OPENAPI_BUNDLE_MAX_BYTES (here 64 KiB) is never read back.
 */
import request from 'supertest';
import { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import { loadConfig } from '../../platform/config';
import { createBlobStore } from '../../platform/storage';
import { createOrg, OrgFixture } from '../factories';
import type { Json } from '../support/api';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';

const MAX_BYTES = 64 * 1024;
const HEAD = 'openapi: 3.0.3\ninfo: {title: Limits, version: "1"}\npaths: {}\n';

let server: TestServer;
let worker: TestWorker;

beforeAll(async () => {
  const base = loadConfig();
  server = await startServer(
    shortJobRetries(privateTaskQueue({ ...base, openapi: { ...base.openapi, bundleMaxBytes: MAX_BYTES } })),
  );
  worker = await startWorker(server.ds, server.config);
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

const specPath = (orgId: string, slug: string) => `/v1/orgs/${orgId}/openapi/${slug}`;

/** Creates a spec from a text and polls it until its processing is complete. */
async function processed(fx: OrgFixture, slug: string, text: string): Promise<Json> {
  await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/openapi`).send({ slug, source: { text } }).expect(201);
  for (let i = 0; i < 300; i++) {
    const { body } = await server.as(fx.admin.token).get(specPath(fx.org.id, slug)).expect(200);
    if (body.processingState === 'complete') return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${slug} was not processed in time`);
}

describe('YAML alias bombs and oversized OpenAPI bundles', () => {
  it('an alias bomb fails PARSE_ERROR at the alias limit and adds no version', async () => {
    const fx = await createOrg(server.ds);
    // 8 KB of text, 1 MB once its 1,000 aliases are expanded (the report's took 60 KB to 300 MB)
    const bomb = `${HEAD}x-payload: &p ${'x'.repeat(1000)}\nx-copies:\n${'  - *p\n'.repeat(1000)}`;
    const spec = await processed(fx, 'bomb', bomb);
    expect(spec).toMatchObject({
      lastProcessErrorCode: 'PARSE_ERROR',
      lastProcessedErrors: [{ code: 'yaml-parse', message: expect.stringMatching(/alias count/) }],
    });
    expect(spec).not.toHaveProperty('lastVersion');
  });

  it('a document over OPENAPI_BUNDLE_MAX_BYTES fails PARSE_ERROR naming the limit and its size', async () => {
    const fx = await createOrg(server.ds);
    const text = `${HEAD}x-notes: "${'n'.repeat(MAX_BYTES)}"\n`;
    const spec = await processed(fx, 'large', text);
    expect(spec).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR' });
    expect(spec).not.toHaveProperty('lastVersion');
    expect(spec.lastProcessedErrors).toEqual([
      {
        code: 'too-large',
        message: expect.stringMatching(
          new RegExp(
            `^the document is \\d+ bytes serialized, more than the ${MAX_BYTES} allowed \\(OPENAPI_BUNDLE_MAX_BYTES\\)$`,
          ),
        ),
      },
    ]);
  });

  it('a stored bundle over the maximum is answered 409 by every reader, never parsed', async () => {
    const fx = await createOrg(server.ds);
    const spec = await processed(fx, 'grown', HEAD);
    await server.as(fx.admin.token).patch(specPath(fx.org.id, 'grown')).send({ visibility: 'public' }).expect(200);
    const published = `/v1/published/openapi/${fx.org.id}/grown`;
    expect((await request(server.app).get(published).expect(200)).body.info.title).toBe('Limits');
    // as a bundle stored before the limit, or under a larger one, would be
    const version = await server.ds.manager.findOneByOrFail(OpenAPISpecVersion, { id: spec.lastVersion });
    const large = { 'openapi.yaml': { isEntrypoint: true, specification: { padding: 'p'.repeat(MAX_BYTES) } } };
    const bytes = Buffer.from(JSON.stringify(large));
    await createBlobStore(server.config).put(version.filesystemKey, bytes, 'application/json');

    const readers = [
      request(server.app).get(published),
      request(server.app).get(`${published}/versions/${version.id}`),
      server.as(fx.admin.token).get(`${specPath(fx.org.id, 'grown')}/versions/latest/content`),
      server.as(fx.admin.token).get(`${specPath(fx.org.id, 'grown')}/versions/${version.id}/content`),
    ];
    for (const reader of readers) {
      const res = await reader;
      expect([res.status, res.body.error.message]).toEqual([
        409,
        `OpenAPI specification version: its bundle is ${bytes.length} bytes, more than the ${MAX_BYTES} served (OPENAPI_BUNDLE_MAX_BYTES)`,
      ]);
    }
    // the version itself is still listed
    await server
      .as(fx.admin.token)
      .get(`${specPath(fx.org.id, 'grown')}/versions/${version.id}`)
      .expect(200);
  });
});
