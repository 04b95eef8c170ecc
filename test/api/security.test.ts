/** Regression tests for the defects of the security and reliability audit. */
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as net from 'net';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../api/app';
import { answerClientErrorsAsJson } from '../../api/client-errors';
import { revokeBySecret } from '../../domain/auth/tokens';
import { newId } from '../../domain/ids';
import { Space } from '../../entities/Space';
import { inTransaction } from '../../platform/db/transactions';
import { createBlobStore } from '../../platform/storage';
import { addMember, createOrg, createUser, OrgFixture } from '../factories';
import { newCollection, newSpace } from '../support/api';
import { commentFixture } from '../support/comments';
import { useServer } from '../support/server';

const server = useServer();

/** The id with the case of each of its letters swapped. */
const swapCase = (id: string) =>
  id.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

describe('ids are exact', () => {
  let fx: OrgFixture;
  let named: Array<{ path: (id: string) => string; id: string; message: string }>;
  beforeAll(async () => {
    fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id, { title: 'Exact' });
    const collection = await newCollection(server, fx.admin, fx.org.id, { title: 'Exact' });
    const team = (
      await server.as(fx.admin.token).put(`/v1/orgs/${fx.org.id}/teams`).send({ title: 'Exact' }).expect(201)
    ).body;
    named = [
      { path: (id) => `/v1/spaces/${id}`, id: space.id, message: 'space not found' },
      { path: (id) => `/v1/collections/${id}`, id: collection.id, message: 'collection not found' },
      { path: (id) => `/v1/orgs/${id}`, id: fx.org.id, message: 'organization not found' },
      { path: (id) => `/v1/orgs/${fx.org.id}/teams/${id}`, id: team.id, message: 'team not found' },
    ];
  });

  it('answers 404 for an id with its letter case swapped', async () => {
    for (const { path, id, message } of named) {
      await server.as(fx.admin.token).get(path(id)).expect(200);
      expect(swapCase(id)).not.toBe(id);
      const res = await server
        .as(fx.admin.token)
        .get(path(swapCase(id)))
        .expect(404);
      expect(res.body.error).toEqual({ code: 404, message });
    }
  });

  it('answers 404 for an id followed by NUL, a space or a no-break space', async () => {
    for (const { path, id, message } of named) {
      for (const suffix of ['%00', '%20', '%C2%A0', '%09', '.']) {
        const res = await server
          .as(fx.admin.token)
          .get(path(`${id}${suffix}`))
          .expect(404);
        expect(res.body.error).toEqual({ code: 404, message });
      }
    }
  });

  it('compares ids byte for byte in the database too', async () => {
    const { id } = named[0];
    const find = (candidate: string) => server.ds.manager.findOneBy(Space, { id: candidate });
    expect(await find(id)).not.toBeNull();
    for (const candidate of [swapCase(id), `${id}\u0000`, `${id}\u00A0`]) expect(await find(candidate)).toBeNull();
  });

  it('refuses an id outside the id alphabet in a body with 400', async () => {
    const collection = named[1].id;
    for (const parent of [`${collection} `, `${collection}\u00A0`]) {
      const res = await server
        .as(fx.admin.token)
        .post(`/v1/orgs/${fx.org.id}/spaces`)
        .send({ title: 'Child', parent })
        .expect(400);
      expect(res.body.error).toEqual({ code: 400, message: 'parent: must be an id (letters, digits, "-" and "_")' });
    }
  });

  it('documents the id alphabet of path parameters', async () => {
    const doc = (await server.as(fx.admin.token).get('/v1/openapi.json').expect(200)).body;
    const param = doc.paths['/v1/spaces/{spaceId}'].get.parameters.find((p: { name: string }) => p.name === 'spaceId');
    expect(param.schema.pattern).toBe('^[A-Za-z0-9_-]{1,64}$');
  });
});

describe('concurrent reaction changes', () => {
  it('all succeed: 20 parallel adds and removes of the same reaction, on a comment and on a reply', async () => {
    const f = await commentFixture(server);
    const comment = (
      await server
        .as(f.commenter.token)
        .post(f.crComments)
        .send({ page: f.guide, body: { markdown: 'react' } })
        .expect(200)
    ).body;
    const reply = (
      await server
        .as(f.commenter.token)
        .post(`${f.crComments}/${comment.id}/replies`)
        .send({ body: { markdown: 'me too' } })
        .expect(200)
    ).body;
    for (const path of [`${f.crComments}/${comment.id}`, `${f.crComments}/${comment.id}/replies/${reply.id}`]) {
      const actors = [f.commenter, f.editor];
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server
            .as(actors[i % 2].token)
            .put(path)
            .send(i % 4 < 2 ? { addedReactions: ['👍'] } : { removedReactions: ['👍'] }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    }
  });
});

/** An app whose request log lines are kept. */
function loggedApp() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const blobs = createBlobStore(server.config);
  const app = createApp({ ds: server.ds, config: server.config, temporal: server.temporal, blobs, logger });
  return { app, blobs, log: () => lines.join('') };
}

describe('the request log', () => {
  it('holds no signature or token sent in a query string', async () => {
    const { app, blobs, log: logged } = loggedApp();
    const { token } = await createUser(server.ds);

    await blobs.put('test/redaction/file.txt', Buffer.from('hello'), 'text/plain');
    const link = new URL(
      await blobs.downloadUrl('test/redaction/file.txt', { filename: 'file.txt', contentType: 'text/plain' }),
    );
    await request(app).get(`${link.pathname}${link.search}`).expect(200);
    const signature = link.searchParams.get('signature')!;
    // a token in the query string is refused, but arrives all the same
    await request(app).get('/v1/user').query({ token }).expect(401);
    await request(app).get('/v1/user').query({ access_token: token, limit: 5 }).expect(401);
    await request(app).get(`/v1/user?Key=${token}&shareKey=${token}x&SIGNATURE=${signature}`).expect(401);

    const log = logged();
    expect(log).toContain('/v1/blobs/test/redaction/file.txt?filename=file.txt&contentType=text%2Fplain&expires=');
    expect(log).toContain('signature=[REDACTED]');
    expect(log).toContain('/v1/user?access_token=[REDACTED]&limit=[REDACTED]');
    expect(log).toContain('/v1/user?Key=[REDACTED]&shareKey=[REDACTED]&SIGNATURE=[REDACTED]');
    for (const secret of [signature, token, token.slice(4), encodeURIComponent(signature)])
      expect(log).not.toContain(secret);
  });
});

describe("the request log's parameters", () => {
  it("shows only the values of the matched operation's declared parameters that are not credentials", async () => {
    const { app, log: logged } = loggedApp();
    const { token } = await createUser(server.ds);
    const bearer = encodeURIComponent(`Bearer ${token}`);
    const claims = 'visitor.email=ada%40example.test';
    // declared: limit (shown), page (shown); undeclared: everything else
    await request(app)
      .get(`/v1/orgs?limit=5&page=&visitorAuthToken=jwt.one.x&Authorization=${bearer}&${claims}&${token}`)
      .expect(401);
    // declared credentials of the published site: shareKey and visitorAuthToken
    await request(app)
      .get(`/v1/orgs/o1/sites/s1/published?shareKey=k-secret&visitorAuthToken=jwt.two.y&${claims}`)
      .set('Authorization', `Bearer ${token}`)
      .expect(404);
    // a route no operation matches: every value
    await request(app).get(`/v1/nothing-here?limit=5&Authorization=${bearer}`).expect(404);

    const log = logged();
    expect(log).toContain(
      '/v1/orgs?limit=5&page=&visitorAuthToken=[REDACTED]&Authorization=[REDACTED]&visitor.email=[REDACTED]&[REDACTED]"',
    );
    expect(log).toContain(
      '/v1/orgs/o1/sites/s1/published?shareKey=[REDACTED]&visitorAuthToken=[REDACTED]&visitor.email=[REDACTED]"',
    );
    expect(log).toContain('/v1/nothing-here?limit=[REDACTED]&Authorization=[REDACTED]"');
    for (const secret of [token, token.slice(4), 'jwt.one', 'jwt.two', 'k-secret', 'ada%40example'])
      expect(log).not.toContain(secret);
  });
});

describe('authentication and error details', () => {
  it('names the Bearer scheme on every 401', async () => {
    const revoked = await createUser(server.ds);
    expect(await inTransaction(server.ds, (db) => revokeBySecret(db, revoked.token))).toBe(true);
    for (const res of [
      await request(server.app).get('/v1/user'),
      await request(server.app).get('/v1/user').set('Authorization', 'Basic dXNlcjpwYXNz'),
      await request(server.app).get('/v1/user').set('Authorization', 'Bearer dpt_unknown'),
      await request(server.app).get('/v1/user').set('Authorization', `Bearer ${revoked.token}`),
      await request(server.app).get('/v1/user').query({ token: revoked.token }),
      await request(server.app).get(`/v1/spaces/${newId()}`).set('Authorization', 'Bearer '),
    ]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body.error.code).toBe(401);
    }
  });

  describe('requests the HTTP parser refuses', () => {
    let httpServer: http.Server;
    let port: number;
    beforeAll(async () => {
      httpServer = http.createServer(server.app);
      answerClientErrorsAsJson(httpServer);
      await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
      port = (httpServer.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => httpServer.close(resolve)));

    /** Sends `raw` as is and reads the whole answer. */
    const send = (raw: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(raw));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const parse = (answer: string) => {
      const [head, body] = answer.split('\r\n\r\n');
      return {
        statusLine: head.split('\r\n')[0],
        contentType: /content-type: ([^\r]+)/i.exec(head)?.[1],
        body: JSON.parse(body),
      };
    };

    it('answers a URL over the header limit with the JSON error body', async () => {
      const answer = parse(await send(`GET /v1/spaces/${'x'.repeat(20000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
      expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect(answer.contentType).toBe('application/json; charset=utf-8');
      expect(answer.body).toEqual({
        error: { code: 431, message: 'request headers (the URL included) are too large' },
      });
    });

    it('answers malformed HTTP with the JSON error body', async () => {
      const answer = parse(await send('GET /v1/user HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n'));
      expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
      expect(answer.body).toEqual({ error: { code: 400, message: 'malformed HTTP request' } });
    });

    it('still serves well-formed requests', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(res.status).toBe(200);
    });
  });

  it("gives an outsider the same 404 for another organization's real team, a random team and a random organization", async () => {
    const fx = await createOrg(server.ds);
    const outsider = await createUser(server.ds);
    const guest = await addMember(server.ds, fx.org, null);
    const member = await addMember(server.ds, fx.org, 'read');
    const team = (
      await server
        .as(fx.admin.token)
        .put(`/v1/orgs/${fx.org.id}/teams`)
        .send({ title: 'Hidden', members: [member.user.id] })
        .expect(201)
    ).body;
    const routes: Array<
      [method: 'get' | 'put' | 'patch' | 'delete', path: (org: string, team: string) => string, body?: object]
    > = [
      ['get', (o, t) => `/v1/orgs/${o}/teams/${t}`],
      ['patch', (o, t) => `/v1/orgs/${o}/teams/${t}`, { title: 'Renamed' }],
      ['delete', (o, t) => `/v1/orgs/${o}/teams/${t}`],
      ['get', (o, t) => `/v1/orgs/${o}/teams/${t}/members`],
      ['put', (o, t) => `/v1/orgs/${o}/teams/${t}/members`, { add: [] }],
      ['put', (o, t) => `/v1/orgs/${o}/teams/${t}/members/${member.user.id}`, { role: 'member' }],
      ['delete', (o, t) => `/v1/orgs/${o}/teams/${t}/members/${member.user.id}`],
    ];
    for (const caller of [outsider, guest]) {
      for (const [method, path, body] of routes) {
        const answers = [];
        for (const [org, teamId] of [
          [fx.org.id, team.id],
          [fx.org.id, newId()],
          [newId(), newId()],
          [newId(), team.id],
        ]) {
          const res = await server.as(caller.token)[method](path(org, teamId)).send(body);
          answers.push({ route: `${method} ${path('{org}', '{team}')}`, status: res.status, body: res.body });
        }
        // a DELETE answers 204 for what the caller may not see, as for what does not exist
        const expected =
          method === 'delete'
            ? { route: answers[0].route, status: 204, body: {} }
            : { route: answers[0].route, status: 404, body: { error: { code: 404, message: 'team not found' } } };
        expect(answers).toEqual([expected, expected, expected, expected]);
      }
    }
    // routes that check the organization first answer for it, whatever follows in the path
    const provider = (
      await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/saml`).send({ label: 'Hidden' }).expect(201)
    ).body;
    const organizationFirst: Array<
      [
        method: 'get' | 'patch' | 'delete' | 'post',
        path: (org: string, child: string) => string,
        child: string,
        body?: object,
      ]
    > = [
      ['get', (o, u) => `/v1/orgs/${o}/members/${u}`, member.user.id],
      ['patch', (o, u) => `/v1/orgs/${o}/members/${u}`, member.user.id, { role: 'edit' }],
      ['delete', (o, u) => `/v1/orgs/${o}/members/${u}`, member.user.id],
      ['post', (o, u) => `/v1/orgs/${o}/members/${u}/sso`, member.user.id],
      ['get', (o, u) => `/v1/orgs/${o}/members/${u}/teams`, member.user.id],
      ['get', (o, u) => `/v1/orgs/${o}/members/${u}/spaces`, member.user.id],
      ['get', (o, p) => `/v1/orgs/${o}/saml/${p}`, provider.id],
      ['patch', (o, p) => `/v1/orgs/${o}/saml/${p}`, provider.id, { label: 'Renamed' }],
      ['delete', (o, p) => `/v1/orgs/${o}/saml/${p}`, provider.id],
      ['delete', (o, i) => `/v1/orgs/${o}/link-invites/${i}`, newId()],
    ];
    for (const [method, path, child, body] of organizationFirst) {
      for (const [org, childId] of [
        [fx.org.id, child],
        [fx.org.id, newId()],
        [newId(), newId()],
        [newId(), child],
      ]) {
        const res = await server.as(outsider.token)[method](path(org, childId)).send(body);
        expect([path('{org}', '{child}'), res.status, res.body]).toEqual([
          path('{org}', '{child}'),
          ...(method === 'delete' ? [204, {}] : [404, { error: { code: 404, message: 'organization not found' } }]),
        ]);
      }
    }
    // the team is still there, and its admin still deletes it (and a missing one) with 204
    await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/teams/${team.id}`).expect(200);
    await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}/teams/${newId()}`).expect(204);
    await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}/teams/${team.id}`).expect(204);
  });
});
