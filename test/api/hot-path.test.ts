/**
 * What the hot path's shortcuts must not change: a revocation or a role change made
 * through this process holds from its next request, and one made by another process within
 * TOKEN_CACHE_MS (at most a second); the
 * request log's volume follows LOG_REQUESTS; the OpenAPI document is served from bytes made once.
 */
import mysql from 'mysql2/promise';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../api/app';
import { revokeBySecret } from '../../domain/auth/tokens';
import { addOrUpdateMember } from '../../domain/organizations/membership';
import { Member } from '../../entities/Member';
import { loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { createBlobStore } from '../../platform/storage';
import { addMember, createOrg, createUser } from '../factories';
import { newChangeRequest, newSpace } from '../support/api';
import { useServer } from '../support/server';

const server = useServer();

describe('authentication and roles on every request', () => {
  it('refuses a token from the request after its revocation', async () => {
    const { token } = await createUser(server.ds);
    await server.as(token).get('/v1/user').expect(200);
    expect(await inTransaction(server.ds, (db) => revokeBySecret(db, token))).toBe(true);
    await server.as(token).get('/v1/user').expect(401);
  });

  it('applies a changed, disabled or removed membership from the next request', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const member = await addMember(server.ds, fx.org, 'read');
    const path = `/v1/spaces/${space.id}`;
    const setDisabled = (disabled: boolean) =>
      inTransaction(server.ds, (db) =>
        db.update(Member, { organizationId: fx.org.id, userId: member.user.id }, { disabled }),
      );
    expect((await server.as(member.token).get(path).expect(200)).body.permissions).toMatchObject({
      view: true,
      edit: false,
      admin: false,
    });
    await inTransaction(server.ds, (db) => addOrUpdateMember(db, fx.org.id, member.user.id, 'admin'));
    expect((await server.as(member.token).get(path).expect(200)).body.permissions).toMatchObject({
      view: true,
      edit: true,
      admin: true,
    });
    await setDisabled(true);
    await server.as(member.token).get(path).expect(404);
    await setDisabled(false);
    await server.as(member.token).get(path).expect(200);
    await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}/members/${member.user.id}`).expect(204);
    await server.as(member.token).get(path).expect(404);
  });

  it('applies a revocation or a role change made by another process (a replica, the worker) within TOKEN_CACHE_MS', async () => {
    expect(server.config.tokenCacheMs).toBeLessThanOrEqual(1000);
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const member = await addMember(server.ds, fx.org, 'admin');
    const path = `/v1/spaces/${space.id}`;
    const elapse = () => new Promise((resolve) => setTimeout(resolve, server.config.tokenCacheMs));
    // written outside this process's transactions, as another process writes them
    const otherProcess = async (sql: string, params: unknown[]) => {
      const { host, port, user, password, database } = server.config.mysql;
      const connection = await mysql.createConnection({ host, port, user, password, database });
      try {
        await connection.query(sql, params);
      } finally {
        await connection.end();
      }
    };
    expect((await server.as(member.token).get(path).expect(200)).body.permissions.admin).toBe(true);
    await otherProcess('UPDATE members SET role = ? WHERE organizationId = ? AND userId = ?', [
      'read',
      fx.org.id,
      member.user.id,
    ]);
    await elapse();
    expect((await server.as(member.token).get(path).expect(200)).body.permissions).toMatchObject({
      view: true,
      edit: false,
      admin: false,
    });
    await otherProcess('UPDATE api_tokens SET revokedAt = NOW() WHERE userId = ?', [member.user.id]);
    await elapse();
    await server.as(member.token).get(path).expect(401);
  });

  it('refuses a TOKEN_CACHE_MS over a second, naming it', () => {
    const previous = process.env.TOKEN_CACHE_MS;
    process.env.TOKEN_CACHE_MS = '1001';
    try {
      expect(() => loadConfig()).toThrow('TOKEN_CACHE_MS: must be at most 1000, got "1001"');
    } finally {
      if (previous === undefined) delete process.env.TOKEN_CACHE_MS;
      else process.env.TOKEN_CACHE_MS = previous;
    }
  });

  it('sees the membership a request itself created: a new organization is administered by its creator', async () => {
    const { token } = await createUser(server.ds);
    const created = await server.as(token).post('/v1/orgs').send({ title: 'Fresh' }).expect(201);
    expect(created.body.permissions.admin).toBe(true);
  });
});

describe('page answers', () => {
  it('follow the head: the read after an edit shows it; each form asked for, and each change request, is answered apart', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const admin = server.as(fx.admin.token);
    const content = `/v1/spaces/${space.id}/content`;
    const created = (
      await admin.post(`${content}/pages`).send({ title: 'Guide', markdown: 'First *words*.' }).expect(201)
    ).body;
    const page = `${content}/page/${created.id}`;
    expect((await admin.get(page).expect(200)).body.markdown).toBe('First *words*.');
    expect((await admin.get(page).expect(200)).headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await admin.get(page).query({ format: 'document' }).expect(200)).body.document).toMatchObject({
      object: 'document',
    });
    await admin.patch(page).send({ markdown: 'Second words.' }).expect(200);
    expect((await admin.get(page).expect(200)).body.markdown).toBe('Second words.');
    expect((await admin.get(`${content}/path/guide`).expect(200)).body).toMatchObject({
      id: created.id,
      markdown: 'Second words.',
    });
    expect(JSON.stringify((await admin.get(page).query({ format: 'document' }).expect(200)).body.document)).toContain(
      'Second words.',
    );
    // the same revision shown in a change request: its own app URLs
    const cr = await newChangeRequest(server, fx.admin, space.id);
    const inCr = (
      await admin.get(`/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${created.id}`).expect(200)
    ).body;
    expect(inCr.markdown).toBe('Second words.');
    expect(inCr.urls.app).toContain(`/~/changes/${cr.number}`);
    expect((await admin.get(page).expect(200)).body.urls.app).not.toContain('/~/changes/');
  });
});

describe('the space list', () => {
  it("counts every matching space, and each space's counters, on the first page (in the page statement) as on the next ones", async () => {
    const fx = await createOrg(server.ds);
    const spaces = [];
    for (let i = 0; i < 3; i++) spaces.push(await newSpace(server, fx.admin, fx.org.id));
    await newChangeRequest(server, fx.admin, spaces[0].id);
    const path = `/v1/orgs/${fx.org.id}/spaces`;
    const first = (await server.as(fx.admin.token).get(path).query({ limit: 2 }).expect(200)).body;
    expect([first.items.length, first.count]).toEqual([2, 3]);
    const second = (await server.as(fx.admin.token).get(path).query({ limit: 2, page: first.next.page }).expect(200))
      .body;
    expect([second.items.length, second.count, second.next]).toEqual([1, 3, undefined]);
    expect((await server.as(fx.admin.token).get(path).query({ limit: 0 }).expect(200)).body).toMatchObject({
      items: [],
      count: 3,
    });
    // the counters are columns of the page statement, on the first page and on a cursor's page alike
    expect([second.items[0].id, second.items[0].changeRequests]).toEqual([spaces[0].id, 1]);
    expect(first.items.map((s: { changeRequests: number }) => s.changeRequests)).toEqual([0, 0]);
    // the organization row is not read: a non-member and an unknown organization answer the same 404
    const stranger = (await createOrg(server.ds)).admin;
    const refused = (await server.as(stranger.token).get(path).expect(404)).body;
    expect((await server.as(fx.admin.token).get('/v1/orgs/nosuchorganization/spaces').expect(404)).body).toEqual(
      refused,
    );
    const empty = (await createOrg(server.ds)).admin;
    const other = await server.as(empty.token).post('/v1/orgs').send({ title: 'Empty' }).expect(201);
    expect((await server.as(empty.token).get(`/v1/orgs/${other.body.id}/spaces`).expect(200)).body).toMatchObject({
      items: [],
      count: 0,
    });
  });
});

describe('the request log', () => {
  async function logged(logRequests: 'all' | 'errors' | 'none'): Promise<Array<Record<string, unknown>>> {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const app = createApp({
      ds: server.ds,
      config: { ...server.config, logRequests },
      temporal: server.temporal,
      blobs: createBlobStore(server.config),
      logger,
    });
    const { token } = await createUser(server.ds);
    await request(app)
      .get('/v1/user')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Request-Id', 'req-ok')
      .expect(200);
    await request(app).get('/v1/user').set('X-Request-Id', 'req-401').expect(401);
    return lines.map((l) => JSON.parse(l)).filter((l) => l.req);
  }

  it('logs every request by default, one line at info without headers', async () => {
    const lines = await logged('all');
    expect(
      lines.map((l) => [l.level, (l.req as { id: string }).id, (l.res as { statusCode: number }).statusCode]),
    ).toEqual([
      [30, 'req-ok', 200],
      [30, 'req-401', 401],
    ]);
    expect(lines[0]).toMatchObject({
      req: { id: 'req-ok', method: 'GET', url: '/v1/user' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    for (const line of lines)
      expect(Object.keys(line.req as object).concat(Object.keys(line.res as object))).not.toContain('headers');
    expect(JSON.stringify(lines)).not.toMatch(/authorization|Bearer/i);
  });

  it('logs only answers of 400 and above with LOG_REQUESTS=errors, and nothing with none', async () => {
    expect((await logged('errors')).map((l) => (l.req as { id: string }).id)).toEqual(['req-401']);
    expect(await logged('none')).toEqual([]);
  });
});

describe('GET /v1/openapi.json', () => {
  it('answers the generated document with an ETag, and 304 to a request that holds it', async () => {
    const res = await request(server.app)
      .get('/v1/openapi.json')
      .set('Accept-Encoding', 'identity')
      .expect(200)
      .expect('Content-Type', 'application/json; charset=utf-8')
      .expect('Vary', 'Accept-Encoding');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.paths['/v1/spaces/{spaceId}']).toBeDefined();
    expect(res.headers.etag).toMatch(/^"[\w-]{43}"$/);
    await request(server.app)
      .get('/v1/openapi.json')
      .set('Accept-Encoding', 'identity')
      .set('If-None-Match', res.headers.etag)
      .expect(304);
    // served from bytes made at start-up: the same document on every request
    expect(
      (await request(server.app).get('/v1/openapi.json').set('Accept-Encoding', 'identity').expect(200)).text,
    ).toBe(res.text);
  });

  it('answers a client that accepts gzip the same document gzipped, with a tag of its own', async () => {
    const plain = await request(server.app).get('/v1/openapi.json').set('Accept-Encoding', 'identity').expect(200);
    // supertest unzips what it receives: the length on the wire is the header's
    const zipped = await request(server.app)
      .get('/v1/openapi.json')
      .set('Accept-Encoding', 'br, gzip;q=0.8')
      .expect(200)
      .expect('Content-Encoding', 'gzip')
      .expect('Vary', 'Accept-Encoding');
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);
    expect(zipped.text).toBe(plain.text);
    expect(Number(zipped.headers['content-length'])).toBeLessThan(plain.text.length / 4);
    await request(server.app)
      .get('/v1/openapi.json')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', zipped.headers.etag)
      .expect(304);
    // gzip refused outright: the document as it is
    const refused = await request(server.app).get('/v1/openapi.json').set('Accept-Encoding', 'gzip;q=0').expect(200);
    expect(refused.headers['content-encoding']).toBeUndefined();
  });
});
