/**
 * Request limits per token, per user, per organization and, without a token, per client address: 429
 * with Retry-After past a small configured limit, the RateLimit headers on every answer, and counters
 * that two app instances (two replicas) share through MySQL. Also the cap on a user's live tokens.
 */
import { randomBytes } from 'crypto';
import type { Express } from 'express';
import * as http from 'http';
import type { AddressInfo } from 'net';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../api/app';
import { metricsOf } from '../../api/metrics';
import { issueToken } from '../../domain/auth/tokens';
import { RateLimitCounter } from '../../entities/RateLimitCounter';
import { type Config, loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { addressBucket } from '../../platform/rate-limits/client-address';
import { RateLimiter } from '../../platform/rate-limits/limiter';
import { createBlobStore } from '../../platform/storage';
import { addMember, createOrg, createUser } from '../factories';
import { newSpace } from '../support/api';
import { sample, scrapeRegistry } from '../support/metrics';
import { TestServer, useServer } from '../support/server';

// an hour: a test never straddles two windows (freshWindow waits when one is about to end)
const WINDOW = 3600;
/** Only the limits a test names are on. */
const limits = (perToken: number, perOrganization: number, more: Partial<Config['rateLimits']> = {}) => ({
  rateLimits: {
    ...loadConfig().rateLimits,
    windowSeconds: WINDOW,
    perToken,
    perOrganization,
    perUser: 0,
    perAddress: 0,
    maxLease: 100,
    ...more,
  },
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

  it('does not count requests refused for want of a token, nor the OpenAPI document', async () => {
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

describe('per user', () => {
  const server = useServer(limits(3, 0, { perUser: 4 }));

  it("counts every token of a user in one bucket above each token's: minting tokens buys no more requests", async () => {
    await freshWindow();
    const owner = await createUser(server.ds);
    const [second, third] = await inTransaction(server.ds, async (db) => [
      (await issueToken(db, owner.user.id, 'second')).secret,
      (await issueToken(db, owner.user.id, 'third')).secret,
    ]);
    for (let left = 2; left >= 0; left--) {
      const ok = await server.as(owner.token).get('/v1/user').expect(200);
      expect(ok.headers['ratelimit-policy']).toBe(`"token";q=3;w=${WINDOW}, "user";q=4;w=${WINDOW}`);
      expect(ok.headers.ratelimit).toMatch(new RegExp(`^"token";r=${left};t=\\d+, "user";r=${left + 1};t=\\d+$`));
    }
    // refused on its token's limit: takes nothing from the user's
    expect((await server.as(owner.token).get('/v1/user').expect(429)).body.error.message).toMatch(/per token/);
    await server.as(second).get('/v1/user').expect(200); // the user's 4th
    const refused = await server.as(second).get('/v1/user').expect(429);
    expect(refused.body.error.message).toMatch(
      new RegExp(`^rate limit: at most 4 requests per ${WINDOW} s per user; retry in \\d+ s$`),
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.headers.ratelimit).toBe(`"token";r=1;t=${retryAfter}, "user";r=0;t=${retryAfter}`);
    // a token the user has not used yet is refused all the same; another user is not
    await server.as(third).get('/v1/user').expect(429);
    await server
      .as((await createUser(server.ds)).token)
      .get('/v1/user')
      .expect(200);

    const { text } = await scrapeRegistry(metricsOf(server.app).registry);
    expect(sample(text, 'http_rate_limited_requests_total', { policy: 'user' })).toBeGreaterThanOrEqual(2);
  });
});

describe('live tokens per user', () => {
  const server = useServer({ maxLiveTokensPerUser: 3 });

  it('answers 409 naming the cap past the live tokens a user may hold; revoked and expired ones do not count', async () => {
    const owner = await createUser(server.ds); // live token 1
    await inTransaction(server.ds, async (db) => {
      await issueToken(db, owner.user.id, 'expired', new Date(Date.now() - 1000));
      const revoked = await issueToken(db, owner.user.id, 'revoked');
      revoked.token.revokedAt = new Date();
      await db.save(revoked.token);
    });
    const issue = () => server.as(owner.token).post('/v1/user/tokens').send({ label: 'more' });
    const issued = (await issue().expect(201)).body; // 2
    await issue().expect(201); // 3
    const refused = await issue().expect(409);
    expect(refused.body.error.message).toBe('tokens: a user holds at most 3 live API tokens; revoke one first');
    // a revocation frees a place; concurrent requests for it get one token between them
    await server.as(owner.token).delete(`/v1/user/tokens/${issued.id}`).expect(204);
    const statuses = (await Promise.all([issue(), issue(), issue()])).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    // the cap is per user
    await server
      .as((await createUser(server.ds)).token)
      .post('/v1/user/tokens')
      .send({})
      .expect(201);
  });
});

describe('a burst at the live-token cap', () => {
  const server = useServer({ maxLiveTokensPerUser: 100 });

  it('serializes on the cap: 30 requests at once by a user with 91 live tokens get 9 tokens and 21 409s, never a 503', async () => {
    const owner = await createUser(server.ds); // live token 1
    await inTransaction(server.ds, async (db) => {
      for (let i = 0; i < 90; i++) await issueToken(db, owner.user.id, `t${i}`);
    });
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => server.as(owner.token).post('/v1/user/tokens').send({ label: 'burst' })),
      );
      const count = (status: number) => answers.filter((r) => r.status === status).length;
      expect({
        round,
        created: count(201),
        refused: count(409),
        other: answers.length - count(201) - count(409),
      }).toEqual({
        round,
        created: round === 0 ? 9 : 0,
        refused: round === 0 ? 21 : 30,
        other: 0,
      });
    }
  });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The app on a port of its own, for requests from chosen loopback source addresses (Linux routes all of 127/8 to lo). */
function listening(server: TestServer) {
  let listener: http.Server;
  let port = 0;
  beforeAll(async () => {
    listener = http.createServer(server.app as Express);
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));
  return (from: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, localAddress: from, headers, agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        })
        .on('error', reject);
    });
}

const byte = () => 1 + (randomBytes(1)[0] % 254);
/** A fresh address, so that no earlier run's counter in this window is met again. */
const loopback = () => `127.${byte()}.${byte()}.${byte()}`;
const ipv6Prefix = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;

/** The operations reachable without a token, each answered without 429 while the limit lasts (404, 403, …). */
const ANONYMOUS = [
  '/v1/integrations/no-such-integration/script.js',
  '/v1/integrations/no-such-integration/assets/icon.png',
  '/v1/published/openapi/nosuchorganization/no-such-spec',
  '/v1/blobs/files/x/y?filename=a.txt&contentType=text%2Fplain&expires=1&signature=abc',
];

describe('per client address', () => {
  const server = useServer(limits(0, 0, { perAddress: 3 }));
  const get = listening(server);

  it('limits the operations reachable without a token per socket address, whatever X-Forwarded-For says', async () => {
    await freshWindow();
    const from = loopback();
    for (const [i, path] of ANONYMOUS.slice(0, 3).entries()) {
      const res = await get(from, path, { 'X-Forwarded-For': `${ipv6Prefix()}::1` });
      expect(res.status).not.toBe(429);
      expect(res.headers['ratelimit-policy']).toBe(`"address";q=3;w=${WINDOW}`);
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"address";r=${2 - i};t=\\d+$`));
    }
    const refused = await get(from, ANONYMOUS[3], { 'X-Forwarded-For': `${ipv6Prefix()}::1` });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.message).toMatch(
      new RegExp(`^rate limit: at most 3 requests per ${WINDOW} s per address; retry in \\d+ s$`),
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.headers.ratelimit).toBe(`"address";r=0;t=${retryAfter}`);
    for (const path of ANONYMOUS) expect((await get(from, path)).status).toBe(429);
    // another address is served; a request with a token is counted by its token, not its address
    expect((await get(loopback(), ANONYMOUS[0])).status).toBe(404);
    const { token } = await createUser(server.ds);
    expect((await get(from, '/v1/user', { Authorization: `Bearer ${token}` })).status).toBe(200);

    const { text } = await scrapeRegistry(metricsOf(server.app).registry);
    expect(sample(text, 'http_rate_limited_requests_total', { policy: 'address' })).toBeGreaterThanOrEqual(5);
  });

  it('takes an IPv4-mapped address as IPv4, and an IPv6 address with its /64', () => {
    expect(addressBucket('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressBucket('192.0.2.7')).toBe('192.0.2.7');
    expect(addressBucket('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(addressBucket(undefined)).toBe('unknown');
  });
});

describe('per client address behind a trusted proxy', () => {
  const server = useServer({ ...limits(0, 0, { perAddress: 2 }), trustProxy: ['loopback'] });
  const get = listening(server);

  it("reads the client's address from X-Forwarded-For as the trusted proxies wrote it", async () => {
    await freshWindow();
    const proxy = loopback();
    const client = ipv6Prefix();
    const statuses = async (forwardedFor: string[]) => {
      const answers: number[] = [];
      for (const f of forwardedFor) answers.push((await get(proxy, ANONYMOUS[0], { 'X-Forwarded-For': f })).status);
      return answers;
    };
    // two addresses of one /64 share its bucket; what the client prepends to the header is ignored
    expect(await statuses([`${client}::1`, `${client}::2`, `198.51.100.1, ${client}::3`])).toEqual([404, 404, 429]);
    // another client behind the same proxy has a bucket of its own
    expect(await statuses([`${ipv6Prefix()}::1`])).toEqual([404]);
  });
});

describe('counters of client addresses', () => {
  const server = useServer();

  it('are deleted once their window is past; the others are kept', async () => {
    let now = Date.now();
    const limiter = new RateLimiter(server.ds, 60, 100, () => now);
    const address = { name: 'address', limit: 10, transient: true };
    const token = { name: 'token', limit: 10 };
    const [a, t] = [`${ipv6Prefix()}::/64`, `t${randomBytes(8).toString('hex')}`];
    await limiter.hit(address, a);
    await limiter.hit(token, t);
    const rows = () =>
      server.ds.manager.findBy(RateLimitCounter, [{ bucket: `address:${a}` }, { bucket: `token:${t}` }]);
    expect((await rows()).map((r) => r.bucket).sort()).toEqual([`address:${a}`, `token:${t}`]);
    now += 60_000;
    await limiter.hit(token, t); // the first request of the next window
    for (let i = 0; i < 50 && (await rows()).length > 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await rows()).map((r) => r.bucket)).toEqual([`token:${t}`]);
  });
});
