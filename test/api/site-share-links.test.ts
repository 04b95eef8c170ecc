/**
 * Share links of sites: their keys open a published `share-link` site to a caller of any
 * organization, resolve published URLs, and stop working once inactive or deleted; who manages them.
 */
import request from 'supertest';
import { newId } from '../../domain/ids';
import { SiteShareLink } from '../../entities/SiteShareLink';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, listAll, newSpace } from '../support/api';
import { useServer } from '../support/server';
import { newSite, outline, sitesPath } from '../support/sites';

const server = useServer();

interface SharedSite {
  fx: OrgFixture;
  site: Json;
  base: string;
  guide: Json;
}

/** A published share-link site of a new organization showing two spaces at its root level. */
async function sharedSite(): Promise<SharedSite> {
  const fx = await createOrg(server.ds);
  const guide = await newSpace(server, fx.admin, fx.org.id, { title: 'Guide' });
  const api = await newSpace(server, fx.admin, fx.org.id, { title: 'API' });
  const site = await newSite(server, fx.admin, fx.org.id, {
    title: 'Private docs',
    visibility: 'share-link',
    spaces: [guide.id, api.id],
  });
  const base = `${sitesPath(fx.org.id)}/${site.id}`;
  await server.as(fx.admin.token).post(`${base}/publish`).expect(200);
  return { fx, site, base, guide };
}

describe('share links', () => {
  it('open the published site to a caller of another organization, until deactivated or deleted', async () => {
    const { fx, site, base } = await sharedSite();
    const as = server.as(fx.admin.token);
    const link = await as.post(`${base}/share-links`).send({ name: 'Partners' }).expect(201);
    expect(link.headers.location).toBe(
      `${server.config.publicBaseUrl}/v1/orgs/${fx.org.id}/sites/${site.id}/share-links/${link.body.id}`,
    );
    const siteUrl = `${server.config.publishedBaseUrl}/sites/${site.id}`;
    expect(link.body).toEqual({
      object: 'share-link',
      id: expect.any(String),
      name: 'Partners',
      active: true,
      key: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      createdAt: expect.any(String),
      urls: { published: `${siteUrl}?share=${link.body.key}` },
    });
    const key = link.body.key;

    const outsider = (await createOrg(server.ds)).admin;
    const read = (shareKey?: string) =>
      server
        .as(outsider.token)
        .get(`${base}/published`)
        .query(shareKey === undefined ? {} : { shareKey });
    await read().expect(404);
    const view = (await read(key).expect(200)).body;
    expect(view.object).toBe('published-content-site');
    expect(outline(view.structure)).toEqual(['Guide', 'API']);
    // the published URLs carry the key, so the outsider can open them
    expect(view.site.urls.published).toBe(`${siteUrl}?share=${key}`);
    expect(view.structure.structure[0].urls.published).toBe(`${siteUrl}/guide?share=${key}`);
    // it reads the published view, nothing else of the site
    expect(view.site.permissions).toMatchObject({ view: false, admin: false });
    await server.as(outsider.token).get(base).query({ shareKey: key }).expect(404);
    await server.as(outsider.token).get(`${base}/sections`).query({ shareKey: key }).expect(404);

    // unknown keys, and keys one character off, open nothing
    await read('x').expect(404);
    await read(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`).expect(404);
    await read(key.toLowerCase() === key ? key.toUpperCase() : key.toLowerCase()).expect(404);

    await as.patch(`${base}/share-links/${link.body.id}`).send({ active: false }).expect(200);
    await read(key).expect(404);
    // an inactive key is refused to members too, not ignored
    await as.get(`${base}/published`).query({ shareKey: key }).expect(404);
    await as.get(`${base}/published`).expect(200);
    await as.patch(`${base}/share-links/${link.body.id}`).send({ active: true }).expect(200);
    await read(key).expect(200);

    // the key opens a share-link site only, and only while it is published
    await as.patch(base).send({ visibility: 'public' }).expect(200);
    await read(key).expect(404);
    await as.patch(base).send({ visibility: 'share-link' }).expect(200);
    await as.post(`${base}/unpublish`).expect(200);
    await read(key).expect(404);
    await as.post(`${base}/publish`).expect(200);
    await read(key).expect(200);

    // another site's key does not open this one
    const other = await newSite(server, fx.admin, fx.org.id, { visibility: 'share-link', spaces: 'empty' });
    const otherKey = (
      await as
        .post(`${sitesPath(fx.org.id)}/${other.id}/share-links`)
        .send({ name: '' })
        .expect(201)
    ).body.key;
    await read(otherKey).expect(404);

    await as.delete(`${base}/share-links/${link.body.id}`).expect(204);
    await read(key).expect(404);
    // a bearer token is still needed
    await request(server.app).get(`${base}/published`).query({ shareKey: key }).expect(401);
  });

  it('resolve the published URLs of the section list, the site-space list and a space with the key', async () => {
    const { fx, base, guide } = await sharedSite();
    const as = server.as(fx.admin.token);
    const key = (await as.post(`${base}/share-links`).send({ name: 'Team' }).expect(201)).body.key;
    const changelog = await newSpace(server, fx.admin, fx.org.id, { title: 'Changelog' });
    await as.post(`${base}/sections`).send({ spaceId: changelog.id }).expect(201);

    const sections = (await as.get(`${base}/sections`).query({ shareKey: key }).expect(200)).body.items;
    expect(sections.map((s: Json) => s.urls.published)).toEqual(
      sections.map((s: Json) => expect.stringMatching(new RegExp(`/${s.path}\\?share=${key}$`))),
    );
    expect(sections[0].siteSpaces[0].urls.published).toMatch(new RegExp(`/guide\\?share=${key}$`));
    const siteSpaces = (await as.get(`${base}/site-spaces`).query({ shareKey: key }).expect(200)).body.items;
    expect(siteSpaces.every((s: Json) => s.urls.published.endsWith(`?share=${key}`))).toBe(true);
    expect((await as.get(`${base}/site-spaces`).expect(200)).body.items[0].urls.published).not.toContain('?share=');

    const space = (await as.get(`/v1/spaces/${guide.id}`).query({ shareKey: key }).expect(200)).body;
    expect(space.urls.published).toMatch(new RegExp(`/guide\\?share=${key}$`));
    expect((await as.get(`/v1/spaces/${guide.id}`).expect(200)).body.urls.published).not.toContain('?share=');

    for (const path of [`${base}/sections`, `${base}/site-spaces`, `/v1/spaces/${guide.id}`]) {
      await as.get(path).query({ shareKey: 'not-a-key' }).expect(404);
    }
    // a space in no share-link site has no key to resolve
    const alone = await newSpace(server, fx.admin, fx.org.id, { title: 'Alone' });
    await as.get(`/v1/spaces/${alone.id}`).query({ shareKey: key }).expect(404);
  });

  it('are listed newest first, paginated, renamed, and refused past their limits', async () => {
    const { fx, base } = await sharedSite();
    const as = server.as(fx.admin.token);
    const names = ['one', 'two', 'three'];
    for (const name of names) await as.post(`${base}/share-links`).send({ name }).expect(201);
    const listed = await listAll(server, fx.admin, `${base}/share-links`, { limit: 2 });
    expect(listed.items.map((l) => l.name)).toEqual(['three', 'two', 'one']);
    expect(listed.pages).toBe(2);
    expect(listed.counts).toEqual([3, 3]);

    const id = listed.items[0].id;
    expect((await as.patch(`${base}/share-links/${id}`).send({ name: 'renamed' }).expect(200)).body).toMatchObject({
      name: 'renamed',
      active: true,
    });
    expect(
      (
        await as
          .post(`${base}/share-links`)
          .send({ name: 'x'.repeat(50) })
          .expect(201)
      ).body.name,
    ).toHaveLength(50);

    const refused: Array<[string, 'post' | 'patch', object, string]> = [
      [`${base}/share-links`, 'post', { name: 'x'.repeat(51) }, 'name: must be at most 50 characters'],
      [`${base}/share-links`, 'post', {}, 'name: is required'],
      [`${base}/share-links`, 'post', { name: 1 }, 'name: must be a string, not number'],
      [`${base}/share-links`, 'post', { name: 'a', key: 'mine' }, 'key: unknown field; accepted: name'],
      [`${base}/share-links/${id}`, 'patch', {}, 'request body: must have at least one field'],
      [`${base}/share-links/${id}`, 'patch', { active: 'no' }, 'active: must be a boolean, not string'],
      [`${base}/share-links/${id}`, 'patch', { name: 'y'.repeat(51) }, 'name: must be at most 50 characters'],
      [`${base}/share-links/${id}`, 'patch', { key: 'mine' }, 'key: unknown field; accepted: name, active'],
    ];
    for (const [path, method, body, message] of refused) {
      const res = await as[method](path).send(body).expect(400);
      expect(res.body.error.message).toBe(message);
    }
    await as.get(`${base}/share-links`).query({ limit: 1001 }).expect(400);

    // at most 100 links per site
    const siteId = base.split('/').pop()!;
    const now = new Date();
    const existing = await server.ds.manager.countBy(SiteShareLink, { siteId });
    await server.ds.manager.insert(
      SiteShareLink,
      Array.from({ length: 100 - existing }, (_, i) => ({
        id: newId(),
        siteId,
        name: `bulk ${i}`,
        key: newId(),
        active: false,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const full = await as.post(`${base}/share-links`).send({ name: 'one too many' }).expect(409);
    expect(full.body.error.message).toMatch(/100 share links/);
  });

  it('are for the site admins: 401 without a token, 404 for another organization, 403 for other members; DELETE 204 when missing', async () => {
    const { fx, base } = await sharedSite();
    const link = (await server.as(fx.admin.token).post(`${base}/share-links`).send({ name: 'x' }).expect(201)).body;
    const editor = await addMember(server.ds, fx.org, 'edit');
    const outsider = (await createOrg(server.ds)).admin;
    const calls: Array<['get' | 'post' | 'patch' | 'delete', string, object?]> = [
      ['get', `${base}/share-links`],
      ['post', `${base}/share-links`, { name: 'y' }],
      ['patch', `${base}/share-links/${link.id}`, { name: 'z' }],
      ['delete', `${base}/share-links/${link.id}`],
    ];
    for (const [method, path, body] of calls) {
      await request(server.app)[method](path).send(body).expect(401);
      await server
        .as(outsider.token)
        [method](path)
        .send(body)
        .expect(method === 'delete' ? 204 : 404);
      await server.as(editor.token)[method](path).send(body).expect(403);
    }
    await server.as(fx.admin.token).patch(`${base}/share-links/${newId()}`).send({ name: 'z' }).expect(404);
    await server.as(fx.admin.token).delete(`${base}/share-links/${newId()}`).expect(204);
    // the link survived the refused calls
    expect(
      (await server.as(fx.admin.token).get(`${base}/share-links`).expect(200)).body.items.map((l: Json) => l.name),
    ).toEqual(['x']);
    await server.as(fx.admin.token).delete(`${base}/share-links/${link.id}`).expect(204);
    expect((await server.as(fx.admin.token).get(`${base}/share-links`).expect(200)).body.count).toBe(0);
  });

  it('go with their site', async () => {
    const { fx, base } = await sharedSite();
    await server.as(fx.admin.token).post(`${base}/share-links`).send({ name: 'x' }).expect(201);
    const siteId = base.split('/').pop()!;
    await server.as(fx.admin.token).delete(base).expect(204);
    expect(await server.ds.manager.countBy(SiteShareLink, { siteId })).toBe(0);
  });
});
