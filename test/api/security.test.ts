/** Regression tests for the defects of the security and reliability audit (issue 7 §4). */
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../api/app';
import { createBlobStore } from '../../domain/storage';
import { Space } from '../../entities/Space';
import { createOrg, createUser, OrgFixture } from '../factories';
import { newCollection, newSpace } from '../support/api';
import { commentFixture } from '../support/comments';
import { useServer } from '../support/server';

const server = useServer();

/** The id with the case of each of its letters swapped. */
const swapCase = (id: string) => id.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

describe('ids are exact', () => {
  let fx: OrgFixture;
  let named: Array<{ path: (id: string) => string; id: string; message: string }>;
  beforeAll(async () => {
    fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id, { title: 'Exact' });
    const collection = await newCollection(server, fx.admin, fx.org.id, { title: 'Exact' });
    const team = (await server.as(fx.admin.token).put(`/v1/orgs/${fx.org.id}/teams`).send({ title: 'Exact' }).expect(201)).body;
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
      const res = await server.as(fx.admin.token).get(path(swapCase(id))).expect(404);
      expect(res.body.error).toEqual({ code: 404, message });
    }
  });

  it('answers 404 for an id followed by NUL, a space or a no-break space', async () => {
    for (const { path, id, message } of named) {
      for (const suffix of ['%00', '%20', '%C2%A0', '%09', '.']) {
        const res = await server.as(fx.admin.token).get(path(`${id}${suffix}`)).expect(404);
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
      const res = await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/spaces`).send({ title: 'Child', parent }).expect(400);
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
    const comment = (await server.as(f.commenter.token).post(f.crComments).send({ page: f.guide, body: { markdown: 'react' } }).expect(200)).body;
    const reply = (await server.as(f.commenter.token).post(`${f.crComments}/${comment.id}/replies`).send({ body: { markdown: 'me too' } }).expect(200)).body;
    for (const path of [`${f.crComments}/${comment.id}`, `${f.crComments}/${comment.id}/replies/${reply.id}`]) {
      const actors = [f.commenter, f.editor];
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server.as(actors[i % 2].token).put(path).send(i % 4 < 2 ? { addedReactions: ['👍'] } : { removedReactions: ['👍'] }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    }
  });
});

describe('the request log', () => {
  it('holds no signature or token sent in a query string', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const blobs = createBlobStore(server.config);
    const app = createApp({ ds: server.ds, config: server.config, temporal: server.temporal, blobs, logger });
    const { token } = await createUser(server.ds);

    await blobs.put('test/redaction/file.txt', Buffer.from('hello'), 'text/plain');
    const link = new URL(await blobs.downloadUrl('test/redaction/file.txt', { filename: 'file.txt', contentType: 'text/plain' }));
    await request(app).get(`${link.pathname}${link.search}`).expect(200);
    const signature = link.searchParams.get('signature')!;
    // a token in the query string is refused, but arrives all the same
    await request(app).get('/v1/user').query({ token }).expect(401);
    await request(app).get('/v1/user').query({ access_token: token, limit: 5 }).expect(401);
    await request(app).get(`/v1/user?Key=${token}&shareKey=${token}x&SIGNATURE=${signature}`).expect(401);

    const log = lines.join('');
    expect(log).toContain('/v1/blobs/test/redaction/file.txt?filename=file.txt&contentType=text%2Fplain&expires=');
    expect(log).toContain('signature=[REDACTED]');
    expect(log).toContain('/v1/user?access_token=[REDACTED]&limit=5');
    expect(log).toContain('/v1/user?Key=[REDACTED]&shareKey=[REDACTED]&SIGNATURE=[REDACTED]');
    for (const secret of [signature, token, token.slice(4), encodeURIComponent(signature)]) expect(log).not.toContain(secret);
  });
});
