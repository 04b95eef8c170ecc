/**
 * Spaces and sites together: a space's published URL follows the oldest published site
 * that shows it; deleting a space hides its site spaces at once and deletes nothing, restoring brings
 * them back, the purge deletes them; a space transferred to another organization leaves the sites.
 */

import { purgeBatch } from '../../domain/spaces/purge';
import { inTransaction } from '../../platform/db/transactions';
import { createBlobStore } from '../../platform/storage';
import { createOrg, OrgFixture } from '../factories';
import { Json, newCollection, newSpace } from '../support/api';
import { useServer } from '../support/server';
import { newSite, outline, sitesPath } from '../support/sites';

const server = useServer();

async function spaces(fx: OrgFixture, titles: string[]): Promise<Json[]> {
  const made = [];
  for (const title of titles) made.push(await newSpace(server, fx.admin, fx.org.id, { title }));
  return made;
}

describe("a space's published URL", () => {
  it('is its URL in the oldest published site that shows it, else its own', async () => {
    const fx = await createOrg(server.ds);
    const as = server.as(fx.admin.token);
    const [guide, api] = await spaces(fx, ['Guide', 'API']);
    const own = `${server.config.publishedBaseUrl}/s/${guide.id}`;
    const urlOf = async () => (await as.get(`/v1/spaces/${guide.id}`).expect(200)).body.urls;
    expect(await urlOf()).toMatchObject({ published: own, public: own });

    const older = await newSite(server, fx.admin, fx.org.id, { title: 'Older', spaces: [api.id, guide.id] });
    const newer = await newSite(server, fx.admin, fx.org.id, { title: 'Newer', spaces: [guide.id] });
    expect((await urlOf()).published).toBe(own);
    await as.post(`${sitesPath(fx.org.id)}/${newer.id}/publish`).expect(200);
    const inNewer = `${server.config.publishedBaseUrl}/sites/${newer.id}/guide`;
    expect(await urlOf()).toMatchObject({ published: inNewer, public: inNewer });
    await as.post(`${sitesPath(fx.org.id)}/${older.id}/publish`).expect(200);
    expect((await urlOf()).published).toBe(`${server.config.publishedBaseUrl}/sites/${older.id}/guide`);

    // in a section, under the section's path; the lists and the site spaces' own spaces say the same
    await as
      .post(`${sitesPath(fx.org.id)}/${older.id}/sections`)
      .send({ spaceId: api.id, title: 'Reference' })
      .expect(201);
    const inSection = `${server.config.publishedBaseUrl}/sites/${older.id}/older/guide`;
    expect((await urlOf()).published).toBe(inSection);
    const listed = (await as.get(`/v1/orgs/${fx.org.id}/spaces`).expect(200)).body.items.find(
      (s: Json) => s.id === guide.id,
    );
    expect(listed.urls.published).toBe(inSection);
    const variant = (await as.get(`${sitesPath(fx.org.id)}/${older.id}/site-spaces`).expect(200)).body.items.find(
      (s: Json) => s.space.id === guide.id,
    );
    expect([variant.urls.published, variant.space.urls.published]).toEqual([inSection, inSection]);

    await as.post(`${sitesPath(fx.org.id)}/${older.id}/unpublish`).expect(200);
    expect((await urlOf()).published).toBe(inNewer);
    await as.delete(`${sitesPath(fx.org.id)}/${newer.id}`).expect(204);
    expect((await urlOf()).published).toBe(own);
  });
});

describe('deleting, restoring and purging a space that is in a site', () => {
  async function publishedSite() {
    const fx = await createOrg(server.ds);
    const as = server.as(fx.admin.token);
    const [a, b, c] = await spaces(fx, ['A', 'B', 'C']);
    const site = await newSite(server, fx.admin, fx.org.id, { title: 'Docs', spaces: [a.id, b.id] });
    const base = `${sitesPath(fx.org.id)}/${site.id}`;
    // sections: Docs (A, B), Only C (C), Mixed (C, A)
    await as.post(`${base}/sections`).send({ spaceId: c.id, title: 'Only C' }).expect(201);
    const mixed = (await as.post(`${base}/sections`).send({ spaceId: c.id, title: 'Mixed' }).expect(201)).body;
    await as.post(`${base}/site-spaces`).send({ spaceId: a.id, sectionId: mixed.id }).expect(201);
    await as.post(`${base}/publish`).expect(200);
    return { fx, as, site, base, a, b, c };
  }

  it('hides its site spaces at once, deletes nothing, and brings them back on restore', async () => {
    const { as, site, base, c } = await publishedSite();
    const before = (await as.get(`${base}/published`).expect(200)).body;
    expect(outline(before.structure)).toEqual([
      { section: 'Docs', siteSpaces: ['A', 'B'] },
      { section: 'Only C', siteSpaces: ['C'] },
      { section: 'Mixed', siteSpaces: ['C', 'A'] },
    ]);
    const rows = async () =>
      (await server.ds.query('SELECT COUNT(*) AS n FROM site_spaces WHERE siteId = ?', [site.id]))[0].n;
    expect(Number(await rows())).toBe(5);

    await as.delete(`/v1/spaces/${c.id}`).expect(204);
    const hidden = (await as.get(`${base}/published`).expect(200)).body;
    expect(outline(hidden.structure)).toEqual([
      { section: 'Docs', siteSpaces: ['A', 'B'] },
      { section: 'Mixed', siteSpaces: ['A'] },
    ]);
    expect(hidden.structure.structure[1].siteSpaces[0].default).toBe(true);
    expect(hidden.site.siteSpaces).toBe(3);
    expect((await as.get(`${base}/site-spaces`).expect(200)).body.items.map((s: Json) => s.title)).toEqual([
      'A',
      'B',
      'A',
    ]);
    expect(Number(await rows())).toBe(5);

    await as.post(`/v1/spaces/${c.id}/restore`).expect(200);
    const back = (await as.get(`${base}/published`).expect(200)).body;
    // the same items in the same places, with the same defaults (the spaces' updatedAt moved on)
    const shape = (structure: Json) =>
      structure.structure.map((s: Json) => [
        s.id,
        s.default,
        s.siteSpaces.map((v: Json) => [v.id, v.default, v.urls.published]),
      ]);
    expect(shape(back.structure)).toEqual(shape(before.structure));
    expect(back.site.siteSpaces).toBe(5);
  });

  it('is deleted from the sites by the purge: its site spaces, and the sections it alone filled', async () => {
    const { as, base, a, c } = await publishedSite();
    await as.delete(`/v1/spaces/${c.id}`).expect(204);
    const blobs = createBlobStore(server.config);
    let state = 'more';
    for (let i = 0; i < 50 && state === 'more'; i++)
      state = (await inTransaction(server.ds, (tx) => purgeBatch(tx, blobs, c.id, 1, 0, null))).state;
    expect(state).toBe('purged');
    expect(await server.ds.query('SELECT id FROM site_spaces WHERE spaceId = ?', [c.id])).toEqual([]);
    const sections = (await as.get(`${base}/sections`).expect(200)).body.items;
    expect(
      sections.map((s: Json) => [s.title, s.default, s.siteSpaces.map((v: Json) => [v.title, v.default])]),
    ).toEqual([
      [
        'Docs',
        true,
        [
          ['A', true],
          ['B', false],
        ],
      ],
      ['Mixed', false, [['A', true]]],
    ]);
    // the structure stays writable: its orders have no holes the next sort trips on
    const mixed = sections[1];
    await as
      .patch(`${base}/structure/sort`)
      .send({
        item: { type: 'site-section', id: mixed.id },
        position: { before: { type: 'site-section', id: sections[0].id } },
      })
      .expect(200);
    expect(outline((await as.get(`${base}/published`).expect(200)).body.structure)).toEqual([
      { section: 'Mixed', siteSpaces: ['A'] },
      { section: 'Docs', siteSpaces: ['A', 'B'] },
    ]);
    expect(a.id).toBeTruthy();
  });
});

describe('transferring a space to another organization', () => {
  it("takes it out of the old organization's sites, as deleting its site spaces would", async () => {
    const fx = await createOrg(server.ds);
    const as = server.as(fx.admin.token);
    const [a, b, c] = await spaces(fx, ['A', 'B', 'C']);
    const site = await newSite(server, fx.admin, fx.org.id, { title: 'Docs', spaces: [a.id, b.id] });
    const base = `${sitesPath(fx.org.id)}/${site.id}`;
    const onlyA = (await as.post(`${base}/sections`).send({ spaceId: a.id, title: 'Only A' }).expect(201)).body;
    await as.post(`${base}/sections`).send({ spaceId: c.id, title: 'Cee' }).expect(201);
    await as.patch(base).send({ defaultSiteSection: onlyA.id }).expect(200);

    // the admin administers the target organization too
    const target = (await as.post('/v1/orgs').send({ title: 'Elsewhere' }).expect(201)).body;
    await as.post(`/v1/spaces/${a.id}/transfer`).send({ organization: target.id }).expect(200);
    const sections = (await as.get(`${base}/sections`).expect(200)).body.items;
    expect(
      sections.map((s: Json) => [s.title, s.default, s.siteSpaces.map((v: Json) => [v.title, v.default])]),
    ).toEqual([
      ['Docs', false, [['B', true]]],
      ['Cee', true, [['C', true]]],
    ]);
    expect(await server.ds.query('SELECT id FROM site_spaces WHERE spaceId = ?', [a.id])).toEqual([]);

    // a collection's spaces go the same way
    const collection = await newCollection(server, fx.admin, fx.org.id);
    const inCollection = await newSpace(server, fx.admin, fx.org.id, { title: 'Inside', parent: collection.id });
    await as.post(`${base}/site-spaces`).send({ spaceId: inCollection.id }).expect(201);
    await as.post(`/v1/collections/${collection.id}/transfer`).send({ organization: target.id }).expect(200);
    expect(await server.ds.query('SELECT id FROM site_spaces WHERE spaceId = ?', [inCollection.id])).toEqual([]);
  });
});
