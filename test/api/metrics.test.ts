/**
 * What an operator reads: GET /metrics on the metrics listener (requests by operation and status
 * with their latency, the MySQL pool), never on the public port; request log lines that name the
 * operation, the organization and the request.
 */
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../api/app';
import { metricsOf } from '../../api/metrics';
import { serveMetrics } from '../../platform/metrics/server';
import { createBlobStore } from '../../platform/storage';
import { createOrg } from '../factories';
import { newSpace } from '../support/api';
import { sample, scrapeRegistry } from '../support/metrics';
import { useServer } from '../support/server';

const server = useServer();

async function scrape(): Promise<{ status: number; type: string | null; text: string }> {
  return scrapeRegistry(metricsOf(server.app).registry);
}

describe('GET /metrics', () => {
  it('counts requests by operation id and status, with a latency histogram, and shows the MySQL pool', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    for (let i = 0; i < 3; i++) await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).expect(200);
    await server.as(fx.admin.token).get('/v1/spaces/noSuchSpace000000000').expect(404);
    await request(server.app).get(`/v1/spaces/${space.id}`).expect(401);
    await request(server.app).get('/no/such/route').expect(404);

    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0.0.4/);
    expect(text).toMatch(/# TYPE http_request_duration_seconds histogram/);
    expect(sample(text, 'http_request_duration_seconds_count', { operation: 'getSpace', status: '200' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count', { operation: 'getSpace', status: '404' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { operation: 'getSpace', status: '401' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { operation: 'createSpace', status: '201' })).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { operation: 'none', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    // every request falls in the last bucket, and the sum of their latencies is positive
    expect(
      sample(text, 'http_request_duration_seconds_bucket', { operation: 'getSpace', status: '200', le: '+Inf' }),
    ).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_sum', { operation: 'getSpace', status: '200' })).toBeGreaterThan(
      0,
    );

    expect(sample(text, 'db_pool_connections', { state: 'max', service: 'api' })).toBe(server.config.mysql.poolSize);
    const inUse = sample(text, 'db_pool_connections', { state: 'in_use' })!;
    const idle = sample(text, 'db_pool_connections', { state: 'idle' })!;
    expect(inUse + idle).toBeGreaterThan(0);
    expect(sample(text, 'db_pool_waiting_requests', {})).toBe(0);
    expect(text).toMatch(/^process_cpu_seconds_total\{service="api"\} /m);
    // every sample names its service; each rate-limit policy's counter exists before its first refusal
    const samples = text.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(samples.filter((line) => !line.includes('service="api"'))).toEqual([]);
    for (const policy of ['token', 'user', 'organization', 'address'])
      expect(sample(text, 'http_rate_limited_requests_total', { policy })).toBeGreaterThanOrEqual(0);
  });

  it('is not served on the public port, and its listener serves nothing else', async () => {
    const fx = await createOrg(server.ds);
    await server.as(fx.admin.token).get('/metrics').expect(404);
    await request(server.app).get('/metrics').expect(404);
    const listener = await serveMetrics(metricsOf(server.app).registry, '127.0.0.1', 0);
    try {
      expect((await fetch(`http://127.0.0.1:${listener.port}/v1/user`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${listener.port}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await listener.close();
    }
  });
});

describe('the request log', () => {
  it('names the operation, the organization and the request on each line', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const app = createApp({
      ds: server.ds,
      config: server.config,
      temporal: server.temporal,
      blobs: createBlobStore(server.config),
      logger,
    });
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const auth = `Bearer ${fx.admin.token}`;
    await request(app)
      .get(`/v1/spaces/${space.id}`)
      .set('Authorization', auth)
      .set('X-Request-Id', 'req-space')
      .expect(200);
    await request(app)
      .get(`/v1/orgs/${fx.org.id}/spaces`)
      .set('Authorization', auth)
      .set('X-Request-Id', 'req-list')
      .expect(200);
    await request(app).get('/v1/user').set('Authorization', auth).set('X-Request-Id', 'req-user').expect(200);
    await request(app).get(`/v1/spaces/${space.id}`).set('X-Request-Id', 'req-401').expect(401);
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.req);
    const byId = Object.fromEntries(logged.map((l) => [l.req.id, l]));
    expect(byId['req-space']).toMatchObject({
      operationId: 'getSpace',
      organizationId: fx.org.id,
      res: { statusCode: 200 },
    });
    expect(byId['req-list']).toMatchObject({ operationId: 'listSpaces', organizationId: fx.org.id });
    // no organization in the path: none on the line
    expect(byId['req-user']).toMatchObject({ operationId: 'getAuthenticatedUser' });
    expect(byId['req-user']).not.toHaveProperty('organizationId');
    // refused before the organization is looked up
    expect(byId['req-401']).toMatchObject({ operationId: 'getSpace', res: { statusCode: 401 } });
  });
});
