/**
 * Request limits per token and per organization: 429 with Retry-After past a small configured
 * limit, the RateLimit headers on every answer, and counters that two app instances (two replicas)
 * share through MySQL.
 */
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../api/app';
import { metricsOf } from '../../api/metrics';
import { loadConfig } from '../../domain/config';
import { createBlobStore } from '../../domain/storage';
import { addMember, createOrg } from '../factories';
import { newSpace } from '../support/api';
import { sample, scrapeRegistry } from '../support/metrics';
import { TestServer, useServer } from '../support/server';

// an hour: a test never straddles two windows (freshWindow waits when one is about to end)
const WINDOW = 3600;
const limits = (perToken: number, perOrganization: number, maxLease = 100) => ({
  rateLimits: { ...loadConfig().rateLimits, windowSeconds: WINDOW, perToken, perOrganization, maxLease },
});

async function freshWindow(): Promise<void> {
  const left = WINDOW - ((Date.now() / 1000) % WINDOW);
  if (left < 10) await new Promise((r) => setTimeout(r, left * 1000 + 100));
}

/** Another app on the same database and configuration: a second API replica. */
function replica(server: TestServer) {
  return createApp({
    ds: server.ds,
    config: server.config,
    temporal: server.temporal,
    blobs: createBlobStore(server.config),
    logger: pino({ level: 'silent' }),
  });
}

describe('per token', () => {
  const server = useServer(limits(3, 100));

  it('answers 429 with Retry-After past the limit, and the RateLimit headers on every answer', async () => {
    await freshWindow();
    const fx = await createOrg(server.ds);
    const other = await addMember(server.ds, fx.org, 'read');
    const path = `/v1/orgs/${fx.org.id}`;
    for (let left = 2; left >= 0; left--) {
      const ok = await server.as(fx.admin.token).get(path).expect(200);
      expect(ok.headers['ratelimit-policy']).toBe(`"token";q=3;w=${WINDOW}, "organization";q=100;w=${WINDOW}`);
      expect(ok.headers.ratelimit).toMatch(
        new RegExp(`^"token";r=${left};t=\\d+, "organization";r=${99 - (2 - left)};t=\\d+$`),
      );
    }
    const refused = await server.as(fx.admin.token).get(path).expect(429);
    expect(refused.body).toEqual({
      error: {
        code: 429,
        message: expect.stringMatching(
          new RegExp(`^rate limit: at most 3 requests per ${WINDOW} s per token; retry in \\d+ s$`),
        ),
      },
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW);
    expect(refused.headers.ratelimit).toBe(`"token";r=0;t=${retryAfter}`);
    // every operation counts against the token, and another token of the organization is not limited
    await server.as(fx.admin.token).get('/v1/user').expect(429);
    await server.as(other.token).get(path).expect(200);

    const { text } = await scrapeRegistry(metricsOf(server.app).registry);
    expect(sample(text, 'http_rate_limited_requests_total', { policy: 'token' })).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'http_request_duration_seconds_count', { operation: 'getOrganization', status: '429' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('does not limit requests without a token, nor count them', async () => {
    for (let i = 0; i < 5; i++) await request(server.app).get('/v1/user').expect(401);
    const res = await request(server.app).get('/v1/openapi.json').expect(200);
    expect(res.headers.ratelimit).toBeUndefined();
  });
});

describe('per organization', () => {
  const server = useServer(limits(3, 5));

  it("counts every member's token, not outsiders' requests, and a token refused on its own limit takes nothing from it", async () => {
    await freshWindow();
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id); // 1 (POST names the organization)
    const writer = await addMember(server.ds, fx.org, 'edit');
    const reader = await addMember(server.ds, fx.org, 'read');
    // an outsider naming the organization's space spends only its own token's budget
    const outsider = await createOrg(server.ds);
    for (let i = 0; i < 2; i++) await server.as(outsider.admin.token).get(`/v1/spaces/${space.id}`).expect(404);
    await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).expect(200); // 2: a space counts for its organization
    await server.as(writer.token).get(`/v1/spaces/${space.id}`).expect(200); // 3
    for (let i = 0; i < 2; i++) await server.as(writer.token).get(`/v1/orgs/${fx.org.id}/spaces`).expect(200); // 4, 5
    const refusedByToken = await server.as(writer.token).get(`/v1/orgs/${fx.org.id}`).expect(429); // the writer's 4th
    expect(refusedByToken.body.error.message).toMatch(/per token/);
    const refusedByOrganization = await server.as(reader.token).get(`/v1/spaces/${space.id}`).expect(429);
    expect(refusedByOrganization.body.error.message).toMatch(/at most 5 requests per 3600 s per organization/);
    expect(refusedByOrganization.headers.ratelimit).toMatch(/^"token";r=2;t=\d+, "organization";r=0;t=\d+$/);
    // what names no organization, or another one, is still served
    await server.as(reader.token).get('/v1/user').expect(200);
    const elsewhere = await createOrg(server.ds);
    await server.as(elsewhere.admin.token).get(`/v1/orgs/${elsewhere.org.id}`).expect(200);
  });
});

describe('across replicas', () => {
  const server = useServer(limits(4, 100));

  it('shares the counters: two app instances together admit the limit', async () => {
    await freshWindow();
    const second = replica(server);
    const fx = await createOrg(server.ds);
    const auth = `Bearer ${fx.admin.token}`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (
          await request(i % 2 ? second : server.app)
            .get('/v1/user')
            .set('Authorization', auth)
        ).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('never admits more than the limit when replicas lease blocks of hits', async () => {
    await freshWindow();
    // 300 per token: each replica leases 3 hits at a time
    const config = { ...server.config, ...limits(300, 0) };
    const apps = [0, 1].map(() =>
      createApp({
        ds: server.ds,
        config,
        temporal: server.temporal,
        blobs: createBlobStore(config),
        logger: pino({ level: 'silent' }),
      }),
    );
    const fx = await createOrg(server.ds);
    const auth = `Bearer ${fx.admin.token}`;
    let admitted = 0;
    for (let i = 0; i < 320; i++) {
      // uneven: the first replica takes two requests of every three
      const res = await request(apps[i % 3 === 2 ? 1 : 0])
        .get('/v1/user')
        .set('Authorization', auth);
      if (res.status === 200) admitted++;
      else expect(res.status).toBe(429);
    }
    expect(admitted).toBeGreaterThan(300 - 2 * 3);
    expect(admitted).toBeLessThanOrEqual(300);
  }, 60000);
});
