/**
 * Conditional requests on the single resources beside spaces: collections, change requests, comments, sites,
 * OpenAPI specifications and integrations each carry a strong ETag, answer 304 to a current `If-None-Match`, and refuse a
 * write whose `If-Match` is stale (412, nothing written), checked under the write's row lock.
 */
import type { Test } from 'supertest';
import { createOrg, OrgFixture, unique } from '../factories';
import { Json, newChangeRequest, newCollection, newSpace } from '../support/api';
import { useServer } from '../support/server';
import { newSite, sitesPath } from '../support/sites';

const server = useServer();

interface Kind {
  name: string;
  /** creates one in the fixture's organization; its GET path, a write (a different body for each `n`), a delete */
  make(fx: OrgFixture): Promise<{
    path: string;
    write(n: number): Test;
    title(answer: Json): unknown;
    remove?: string;
  }>;
}

const kinds: Kind[] = [
  {
    name: 'a collection',
    async make(fx) {
      const path = `/v1/collections/${(await newCollection(server, fx.admin, fx.org.id, { title: 'Guides' })).id}`;
      return {
        path,
        write: (n) =>
          server
            .as(fx.admin.token)
            .patch(path)
            .send({ title: `Guides ${n}` }),
        title: (a) => a.title,
        remove: path,
      };
    },
  },
  {
    name: 'a change request',
    async make(fx) {
      const space = await newSpace(server, fx.admin, fx.org.id);
      const cr = await newChangeRequest(server, fx.admin, space.id, { subject: 'Draft' });
      const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
      return {
        path,
        write: (n) =>
          server
            .as(fx.admin.token)
            .patch(path)
            .send({ subject: `Draft ${n}` }),
        title: (a) => a.subject,
      };
    },
  },
  {
    name: 'a comment',
    async make(fx) {
      const space = await newSpace(server, fx.admin, fx.org.id);
      const comments = `/v1/spaces/${space.id}/comments`;
      const created = await server
        .as(fx.admin.token)
        .post(comments)
        .send({ body: { markdown: 'Typo here' } })
        .expect(200);
      const path = `${comments}/${created.body.id}`;
      return {
        path,
        write: (n) =>
          server
            .as(fx.admin.token)
            .put(path)
            .send({ body: { markdown: `Typo here ${n}` } }),
        title: (a) => a.body.markdown,
        remove: path,
      };
    },
  },
  {
    name: 'a site',
    async make(fx) {
      const path = `${sitesPath(fx.org.id)}/${(await newSite(server, fx.admin, fx.org.id, { title: 'Docs' })).id}`;
      return {
        path,
        write: (n) =>
          server
            .as(fx.admin.token)
            .patch(path)
            .send({ title: `Docs ${n}` }),
        title: (a) => a.title,
        remove: path,
      };
    },
  },
  {
    name: 'an OpenAPI specification',
    async make(fx) {
      const slug = unique('spec-');
      const text = JSON.stringify({ openapi: '3.1.0', info: { title: 'Pets', version: '1' }, paths: {} });
      await server
        .as(fx.admin.token)
        .post(`/v1/orgs/${fx.org.id}/openapi`)
        .send({ slug, source: { text } })
        .expect(201);
      const path = `/v1/orgs/${fx.org.id}/openapi/${slug}`;
      return {
        path,
        // every write changes the private specification (a write that sets what is already there changes nothing,
        // so a concurrent writer's ETag would rightly still hold)
        write: () => server.as(fx.admin.token).patch(path).send({ visibility: 'public' }),
        title: (a) => a.visibility,
        remove: path,
      };
    },
  },
  {
    name: 'an integration',
    async make(fx) {
      const path = `/v1/integrations/${unique('etag-')}`;
      const publish = (title: string) =>
        server
          .as(fx.admin.token)
          .post(path)
          .send({
            organization: fx.org.id,
            title,
            description: 'Does things',
            script: 'export default {};\n',
            scopes: ['space:content:read'],
          });
      await publish('Helper').expect(200);
      return { path, write: (n) => publish(`Helper ${n}`), title: (a) => a.title, remove: path };
    },
  },
];

describe.each(kinds)('conditional requests on $name', (kind) => {
  let fx: OrgFixture;
  let made: Awaited<ReturnType<Kind['make']>>;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    made = await kind.make(fx);
  });
  const read = () => server.as(fx.admin.token).get(made.path);

  it('carries a strong ETag; If-None-Match with it answers 304 with no body until a write', async () => {
    const etag = (await read().expect(200)).headers.etag;
    expect(etag).toMatch(/^"[^"]+"$/);
    const unchanged = await read().set('If-None-Match', etag).expect(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.etag).toBe(etag);
    await made.write(1).expect(200);
    const changed = await read().set('If-None-Match', etag).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('refuses a write whose If-Match is stale (412, nothing written) and takes the current one', async () => {
    const etag = (await read().expect(200)).headers.etag;
    const first = await made.write(1).set('If-Match', etag).expect(200);
    const refused = await made.write(2).set('If-Match', etag).expect(412);
    expect(refused.body.error).toEqual({ code: 412, message: expect.stringMatching(/^If-Match: /) });
    expect(made.title((await read().expect(200)).body)).toBe(made.title(first.body));
    await made
      .write(3)
      .set('If-Match', `W/${(await read()).headers.etag}`)
      .expect(412);
    await made
      .write(4)
      .set('If-Match', (await read()).headers.etag)
      .expect(200);
  });

  it('lets one of two concurrent writers holding one ETag win; the other gets 412', async () => {
    const etag = (await read().expect(200)).headers.etag;
    const answers = await Promise.all([made.write(1).set('If-Match', etag), made.write(2).set('If-Match', etag)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    expect(made.title((await read().expect(200)).body)).toBe(made.title(winner.body));
  });

  it('documents If-None-Match and 304 on its read, If-Match and 412 on its writes', async () => {
    const doc = (await server.as(fx.admin.token).get('/v1/openapi.json').expect(200)).body;
    const template = Object.keys(doc.paths).find((p) =>
      new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(made.path),
    )!;
    const item = doc.paths[template];
    const headers = (op: Json) => op.parameters.filter((p: Json) => p.in === 'header').map((p: Json) => p.name);
    expect(headers(item.get)).toContain('If-None-Match');
    expect(Object.keys(item.get.responses)).toContain('304');
    for (const method of ['patch', 'put', 'post', 'delete'].filter((m) => item[m])) {
      expect([method, headers(item[method])]).toEqual([method, expect.arrayContaining(['If-Match'])]);
      expect(Object.keys(item[method].responses)).toContain('412');
    }
  });

  if (kind.name !== 'a change request')
    it('answers 412 to a DELETE whose If-Match is stale or whose resource is gone; without it, 204 stays', async () => {
      const del = (ifMatch?: string) => {
        const req = server.as(fx.admin.token).delete(made.remove!);
        return ifMatch ? req.set('If-Match', ifMatch) : req;
      };
      const stale = (await read().expect(200)).headers.etag;
      await made.write(1).expect(200);
      await del(stale).expect(412);
      await read().expect(200);
      await del((await read()).headers.etag).expect(204);
      await del('*').expect(412);
      await del().expect(204);
    });
});

describe('conditional merge of a change request', () => {
  it('refuses a merge whose If-Match is stale, and merges with the current one', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const cr = await newChangeRequest(server, fx.admin, space.id, { subject: 'Ready' });
    const path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const stale = (await server.as(fx.admin.token).get(path).expect(200)).headers.etag;
    await server.as(fx.admin.token).patch(path).send({ subject: 'Ready now' }).expect(200);
    const merge = (etag: string) => server.as(fx.admin.token).post(`${path}/merge`).set('If-Match', etag);
    await merge(stale).expect(412);
    expect((await server.as(fx.admin.token).get(path).expect(200)).body.status).not.toBe('merged');
    await merge((await server.as(fx.admin.token).get(path)).headers.etag).expect(200);
    expect((await server.as(fx.admin.token).get(path).expect(200)).body.status).toBe('merged');
  });
});

describe('the ETag of a comment', () => {
  it('moves when someone reacts to it or replies, though its row is unchanged', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const comment = (
      await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${space.id}/comments`)
        .send({ body: { markdown: 'Hm' } })
        .expect(200)
    ).body;
    const path = `/v1/spaces/${space.id}/comments/${comment.id}`;
    const read = () => server.as(fx.admin.token).get(path);
    const first = (await read().expect(200)).headers.etag;
    await server
      .as(fx.admin.token)
      .put(path)
      .send({ addedReactions: ['👍'] })
      .expect(200);
    const reacted = await read().set('If-None-Match', first).expect(200);
    await server
      .as(fx.admin.token)
      .post(`${path}/replies`)
      .send({ body: { markdown: 'Agreed' } })
      .expect(200);
    await read().set('If-None-Match', reacted.headers.etag).expect(200);
  });
});
