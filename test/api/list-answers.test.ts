/**
 * A list answer remembered with the rows it was made from (api/answers-of-rows.ts) is sent again only while the
 * same caller's access and every value read for it are the same: a change written by another process (another API
 * replica, the worker: no commit of this one) shows in the next answer, and an answer whose making read more than
 * the rows and the caller is never remembered.
 */
import { z } from 'zod';
import { AnswersOfRows } from '../../api/answers-of-rows';
import type { Caller } from '../../api/middleware/authenticate';
import { AccessContext } from '../../domain/access/context';
import { createOrg } from '../factories';
import { Json, newSpace } from '../support/api';
import { useServer } from '../support/server';
import { newSite, sitesPath } from '../support/sites';

const server = useServer();

describe('a list answer remembered with its rows', () => {
  const schema = z.object({ made: z.number() });
  const caller = (): Caller => ({ userId: 'u', tokenId: 't', memberships: [], grants: [] });

  /** An AnswersOfRows whose answers say how many times one was made. */
  function counting() {
    const answers = new AnswersOfRows(schema, 2 ** 20);
    let made = 0;
    const ask = async (c: Caller, inputs: unknown[], url = '/list') => {
      const reply = await answers.reply(
        url,
        c,
        new AccessContext(server.ds.manager, c.userId, c),
        inputs,
        async () => ({
          made: ++made,
        }),
      );
      return JSON.parse(reply.json!).made as number;
    };
    return ask;
  }

  const row = (title: string, at: Date) => ({ s_id: 'a', s_title: title, s_updatedAt: at, in_site: 0 });

  it('is made again when any value read differs: a field, a date, a nested value, a count, a row more', async () => {
    const ask = counting();
    const who = caller();
    const at = new Date('2026-12-01T00:00:00Z');
    const located = [['a', { site: { id: 's', hostname: null }, path: 'guide' }]];
    expect(await ask(who, [[row('A', at)], 1, located])).toBe(1);
    // equal values in new objects, as the next statement reads them
    expect(await ask(who, [[row('A', new Date(at))], 1, structuredClone(located)])).toBe(1);
    expect(await ask(who, [[row('B', at)], 1, located])).toBe(2);
    expect(await ask(who, [[row('B', new Date(at.getTime() + 1))], 1, located])).toBe(3);
    expect(await ask(who, [[row('B', at)], 1, [['a', { site: { id: 's', hostname: 'h' }, path: 'guide' }]]])).toBe(4);
    expect(await ask(who, [[row('B', at)], 2, located])).toBe(5);
    expect(await ask(who, [[row('B', at), row('C', at)], 2, located])).toBe(6);
    // a field more or less in a row
    expect(await ask(who, [[{ ...row('B', at), extra: null }], 1, located])).toBe(7);
    expect(await ask(who, [[row('B', at)], 1, located])).toBe(8);
    // another URL is another answer
    expect(await ask(who, [[row('B', at)], 1, located], '/list?limit=1')).toBe(9);
    expect(await ask(who, [[row('B', at)], 1, located])).toBe(8);
  });

  it("is made again for the caller's access as read again, and for another token", async () => {
    const ask = counting();
    const who = caller();
    const inputs = [[row('A', new Date(0))], 1];
    expect(await ask(who, inputs)).toBe(1);
    // the token cache reads the caller again: new memberships and grants, even if equal
    expect(await ask({ ...who, memberships: [] }, inputs)).toBe(2);
    expect(await ask({ ...who, tokenId: 'other' }, inputs)).toBe(3);
  });

  it('is not remembered when its making ran a statement of its own', async () => {
    const answers = new AnswersOfRows(schema, 2 ** 20);
    const who = caller();
    let made = 0;
    const ask = async () => {
      const access = new AccessContext(server.ds.manager, who.userId, who);
      const reply = await answers.reply('/list', who, access, [1], async () => {
        await access.teamMembership('no-such-team');
        return { made: ++made };
      });
      return JSON.parse(reply.json!).made as number;
    };
    expect(await ask()).toBe(1);
    expect(await ask()).toBe(2);
  });
});

describe('the space list asked again', () => {
  it("answers what another process changed since: a title, a counter, a site's publication", async () => {
    const fx = await createOrg(server.ds);
    const as = server.as(fx.admin.token);
    const space = await newSpace(server, fx.admin, fx.org.id, { title: 'Guide' });
    const listed = async (): Promise<Json> =>
      (await as.get(`/v1/orgs/${fx.org.id}/spaces`).expect(200)).body.items.find((s: Json) => s.id === space.id);
    const site = await newSite(server, fx.admin, fx.org.id, { title: 'Docs', spaces: [space.id] });
    await as.post(`${sitesPath(fx.org.id)}/${site.id}/publish`).expect(200);
    const inSite = `${server.config.publishedBaseUrl}/sites/${site.id}/guide`;
    expect(await listed()).toMatchObject({ title: 'Guide', comments: 0, urls: { published: inSite } });
    // asked twice, as a client polling it
    expect(await listed()).toMatchObject({ title: 'Guide', comments: 0, urls: { published: inSite } });

    // written without this process (no commit of its own, so its token cache keeps the caller)
    await server.ds.query('UPDATE spaces SET title = ?, openCommentsCount = 3 WHERE id = ?', ['Handbook', space.id]);
    expect(await listed()).toMatchObject({ title: 'Handbook', comments: 3, urls: { published: inSite } });
    // the site unpublished: the space is still one of its site spaces, but published nowhere
    await server.ds.query('UPDATE sites SET published = 0 WHERE id = ?', [site.id]);
    const own = `${server.config.publishedBaseUrl}/s/${space.id}`;
    expect((await listed()).urls).toMatchObject({ published: own, public: own });
  });

  it('answers a later page with its count as it is now', async () => {
    const fx = await createOrg(server.ds);
    const as = server.as(fx.admin.token);
    await newSpace(server, fx.admin, fx.org.id, { title: 'One' });
    await newSpace(server, fx.admin, fx.org.id, { title: 'Two' });
    const first = (await as.get(`/v1/orgs/${fx.org.id}/spaces?limit=1`).expect(200)).body;
    const later = `/v1/orgs/${fx.org.id}/spaces?limit=1&page=${encodeURIComponent(first.next.page)}`;
    expect((await as.get(later).expect(200)).body).toMatchObject({ count: 2, items: [{ title: 'One' }] });
    await server.ds.query(
      `INSERT INTO spaces (id, organizationId, title, visibility, editMode, language, position, createdAt, updatedAt, version)
       SELECT 'x${Date.now()}', organizationId, 'Three', visibility, editMode, language, position, '2000-01-01', updatedAt, 1
       FROM spaces WHERE organizationId = ? LIMIT 1`,
      [fx.org.id],
    );
    expect((await as.get(later).expect(200)).body).toMatchObject({ count: 3, items: [{ title: 'One' }] });
  });
});
