/**
 * Sites, sections, section groups and site spaces: the whole story of building and
 * publishing a site, the defaults, paths and orders, and what every operation refuses.
 */
import request from 'supertest';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, listAll, newSpace } from '../support/api';
import { useServer } from '../support/server';
import { newSite, outline, sitesPath } from '../support/sites';

const server = useServer();

describe('building and publishing a site', () => {
  it('creates a site from two spaces, adds sections and a group, sorts them, publishes and reads the published site', async () => {
    const { org, admin } = await createOrg(server.ds);
    const as = server.as(admin.token);
    const guide = await newSpace(server, admin, org.id, { title: 'Guide' });
    const api = await newSpace(server, admin, org.id, { title: 'API reference' });
    const changelog = await newSpace(server, admin, org.id, { title: 'Changelog' });
    const faq = await newSpace(server, admin, org.id, { title: 'FAQ' });

    const site = await newSite(server, admin, org.id, { title: 'Acme docs', spaces: [guide.id, api.id] });
    expect(site).toMatchObject({
      object: 'site',
      title: 'Acme docs',
      type: 'basic',
      visibility: 'public',
      published: false,
      siteSpaces: 2,
    });
    expect(site.urls).not.toHaveProperty('published');
    const base = `${sitesPath(org.id)}/${site.id}`;

    const rootSpaces = (await as.get(`${base}/site-spaces`).expect(200)).body;
    expect(rootSpaces.items.map((s: Json) => [s.title, s.path, s.default, s.section])).toEqual([
      ['Guide', 'guide', true, undefined],
      ['API reference', 'api-reference', false, undefined],
    ]);
    expect((await as.get(`${base}/structure`).expect(200)).body.type).toBe('siteSpaces');

    // the first section takes the root site spaces into a section named after the site
    const changelogSection = (
      await as.post(`${base}/sections`).send({ spaceId: changelog.id, icon: 'clock' }).expect(201)
    ).body;
    expect(changelogSection).toMatchObject({
      object: 'site-section',
      title: 'Changelog',
      path: 'changelog',
      icon: 'clock',
      default: false,
    });
    expect(changelogSection).not.toHaveProperty('sectionGroup');
    const faqSection = (await as.post(`${base}/sections`).send({ spaceId: faq.id, title: 'Questions' }).expect(201))
      .body;
    const sections = (await as.get(`${base}/sections`).expect(200)).body.items;
    expect(sections.map((s: Json) => [s.title, s.default, s.siteSpaces.map((v: Json) => v.title)])).toEqual([
      ['Acme docs', true, ['Guide', 'API reference']],
      ['Changelog', false, ['Changelog']],
      ['Questions', false, ['FAQ']],
    ]);
    const main = sections[0];

    const group = (
      await as
        .post(`${base}/section-groups`)
        .send({ title: 'More', sections: [faqSection.id, changelogSection.id] })
        .expect(201)
    ).body;
    expect(group.sections.map((s: Json) => s.title)).toEqual(['Questions', 'Changelog']);

    const sort = (item: object, position?: object) =>
      as.patch(`${base}/structure/sort`).send({ item, ...(position ? { position } : {}) });
    await sort({ type: 'site-section-group', id: group.id }, { before: { type: 'site-section', id: main.id } }).expect(
      200,
    );
    await sort(
      { type: 'site-section', id: changelogSection.id },
      { before: { type: 'site-section', id: faqSection.id } },
    ).expect(200);
    const apiVariant = main.siteSpaces[1];
    const sorted = (
      await sort(
        { type: 'site-space', id: apiVariant.id },
        { before: { type: 'site-space', id: main.siteSpaces[0].id } },
      ).expect(200)
    ).body;
    expect(sorted).toMatchObject({ object: 'site-space', id: apiVariant.id, default: false, section: main.id });

    const published = (await as.post(`${base}/publish`).expect(200)).body;
    expect(published).toMatchObject({
      published: true,
      urls: { published: `${server.config.publishedBaseUrl}/sites/${site.id}` },
    });

    const view = (await as.get(`${base}/published`).expect(200)).body;
    expect(Object.keys(view).sort()).toEqual(['customizations', 'object', 'scripts', 'site', 'structure']);
    expect(view).toMatchObject({
      object: 'published-content-site',
      site: { id: site.id, published: true, siteSpaces: 4 },
      scripts: [],
      customizations: { siteSpaces: {} },
    });
    expect(view.structure.type).toBe('sections');
    expect(outline(view.structure)).toEqual([
      { group: 'More', sections: ['Changelog', 'Questions'] },
      { section: 'Acme docs', siteSpaces: ['API reference', 'Guide'] },
    ]);
    const acme = view.structure.structure[1];
    expect(acme).toMatchObject({
      default: true,
      urls: { published: `${server.config.publishedBaseUrl}/sites/${site.id}/acme-docs` },
    });
    expect(acme.siteSpaces[1]).toMatchObject({
      default: true,
      space: { object: 'space', id: guide.id, title: 'Guide' },
      urls: { published: `${server.config.publishedBaseUrl}/sites/${site.id}/acme-docs/guide` },
    });
  });
});

/** A new organization with a site showing spaces titled `titles` at its root level. */
async function siteWith(
  titles: string[],
  body: object = {},
): Promise<{ fx: OrgFixture; site: Json; base: string; spaces: Json[] }> {
  const fx = await createOrg(server.ds);
  const spaces = [];
  for (const title of titles) spaces.push(await newSpace(server, fx.admin, fx.org.id, { title }));
  const site = await newSite(server, fx.admin, fx.org.id, { title: 'Docs', spaces: spaces.map((s) => s.id), ...body });
  return { fx, site, base: `${sitesPath(fx.org.id)}/${site.id}`, spaces };
}

const titlesOf = (items: Json[]) => items.map((i) => i.title);

describe('sites', () => {
  it('lists with the space, title, published and type filters, page by page', async () => {
    const fx = await createOrg(server.ds);
    const as = server.as(fx.admin.token);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const other = await newSpace(server, fx.admin, fx.org.id);
    const a = await newSite(server, fx.admin, fx.org.id, { title: 'Alpha docs', spaces: [space.id] });
    const b = await newSite(server, fx.admin, fx.org.id, {
      title: 'Beta Docs',
      type: 'premium',
      spaces: [space.id, other.id],
    });
    const c = await newSite(server, fx.admin, fx.org.id, { title: 'Gamma' });
    await as.post(`${sitesPath(fx.org.id)}/${b.id}/publish`).expect(200);
    const path = sitesPath(fx.org.id);
    const all = await listAll(server, fx.admin, path, { limit: 2 });
    expect([all.ids, all.counts, all.pages]).toEqual([[c.id, b.id, a.id], [3, 3], 2]);
    const ids = async (query: Record<string, string>) =>
      (await as.get(path).query(query).expect(200)).body.items.map((i: Json) => i.id);
    expect(await ids({ space: space.id })).toEqual([b.id, a.id]);
    expect(await ids({ space: other.id })).toEqual([b.id]);
    expect(await ids({ title: 'DOCS' })).toEqual([b.id, a.id]);
    expect(await ids({ title: '%' })).toEqual([]);
    expect(await ids({ published: 'true' })).toEqual([b.id]);
    expect(await ids({ published: 'false' })).toEqual([c.id, a.id]);
    expect(await ids({ type: 'premium' })).toEqual([b.id]);
    expect(await ids({ type: 'basic,sponsored' })).toEqual([c.id, a.id]);
    expect((await as.get(path).query({ published: 'yes' }).expect(400)).body.error.message).toBe(
      'published: must be one of true, false',
    );
    expect((await as.get(path).query({ type: 'gold' }).expect(400)).body.error.message).toMatch(
      /^type\.0: must be one of basic, /,
    );
    // a cursor belongs to its filters
    const first = (await as.get(path).query({ limit: 1 }).expect(200)).body;
    await as.get(path).query({ limit: 1, page: first.next.page, published: 'false' }).expect(400);
  });

  it('creates with "empty" or "sample" a new space for the site, and refuses spaces it cannot show', async () => {
    const fx = await createOrg(server.ds);
    const as = server.as(fx.admin.token);
    const empty = await newSite(server, fx.admin, fx.org.id, { title: 'Blank', spaces: 'empty' });
    const sample = await newSite(server, fx.admin, fx.org.id, { title: 'Sampler', spaces: 'sample' });
    const spaceOf = async (site: Json) =>
      (await as.get(`${sitesPath(fx.org.id)}/${site.id}/site-spaces`).expect(200)).body.items[0].space;
    const blank = await spaceOf(empty);
    const filled = await spaceOf(sample);
    expect([blank.title, filled.title, empty.siteSpaces, sample.siteSpaces]).toEqual(['Blank', 'Sampler', 1, 1]);
    expect((await as.get(`/v1/spaces/${blank.id}/content`).expect(200)).body.pages).toEqual([]);
    expect(titlesOf((await as.get(`/v1/spaces/${filled.id}/content`).expect(200)).body.pages)).toEqual([
      'Introduction',
      'Quickstart',
      'Guides',
      'FAQ',
    ]);
    const untitled = await newSite(server, fx.admin, fx.org.id);
    expect([untitled.title, untitled.siteSpaces, untitled.type, untitled.visibility, untitled.agentsContext]).toEqual([
      'Untitled site',
      0,
      'basic',
      'public',
      'included',
    ]);

    const foreign = await createOrg(server.ds);
    const foreignSpace = await newSpace(server, foreign.admin, foreign.org.id);
    const mine = await newSpace(server, fx.admin, fx.org.id);
    const refused = async (spaces: unknown) =>
      (await as.post(sitesPath(fx.org.id)).send({ spaces }).expect(400)).body.error.message;
    expect(await refused([mine.id, foreignSpace.id])).toBe('spaces.1: no such space in this organization');
    expect(await refused([mine.id, mine.id])).toBe('spaces.1: repeats a space listed before');
    expect(await refused('new')).toBe('spaces: does not match any allowed form');
    await as.delete(`/v1/spaces/${mine.id}`).expect(204);
    expect(await refused([mine.id])).toBe('spaces.0: no such space in this organization');
  });

  it('updates settings; hostnames are unique across the service and freed by deleting the site', async () => {
    const { fx, site, base } = await siteWith(['Guide']);
    const as = server.as(fx.admin.token);
    const hostname = `docs.${site.id.toLowerCase().replace(/[^a-z0-9]/g, 'x')}.example.com`;
    const patched = (
      await as
        .patch(base)
        .send({
          title: 'Renamed',
          visibility: 'unlisted',
          basename: 'api',
          hostname,
          adaptiveContent: { enabled: true },
          agentsContext: 'excluded',
        })
        .expect(200)
    ).body;
    expect(patched).toMatchObject({
      title: 'Renamed',
      visibility: 'unlisted',
      basename: 'api',
      hostname,
      adaptiveContent: { enabled: true },
      agentsContext: 'excluded',
    });
    expect(patched).not.toHaveProperty('proxy');
    await as.post(`${base}/publish`).expect(200);
    expect((await as.get(base).expect(200)).body.urls.published).toBe(`https://${hostname}/api`);
    const withProxy = (await as.patch(base).send({ proxy: 'example.com/docs/v2' }).expect(200)).body;
    expect(withProxy.proxy).toEqual({
      origin: 'example.com/docs/v2',
      target: `${server.config.publishedBaseUrl}/sites/${site.id}`,
    });
    expect(withProxy.urls.published).toBe('https://example.com/docs/v2');
    const cleared = (await as.patch(base).send({ proxy: null, basename: null }).expect(200)).body;
    expect(cleared).toMatchObject({ urls: { published: `https://${hostname}` } });
    expect(cleared).not.toHaveProperty('proxy');
    expect(cleared).not.toHaveProperty('basename');

    const other = await siteWith(['Other']);
    const taken = await server.as(other.fx.admin.token).patch(other.base).send({ hostname }).expect(409);
    expect(taken.body.error.message).toBe('hostname: already used by another site');
    await as.patch(base).send({ hostname }).expect(200);
    await as.delete(base).expect(204);
    await as.get(base).expect(404);
    await as.delete(base).expect(204);
    expect((await server.as(other.fx.admin.token).patch(other.base).send({ hostname }).expect(200)).body.hostname).toBe(
      hostname,
    );
    // the spaces of a deleted site stay
    await as.get(`/v1/spaces/${(await newSpace(server, fx.admin, fx.org.id)).id}`).expect(200);
  });

  it('publishes only a site that shows a site space, and unpublishes', async () => {
    const fx = await createOrg(server.ds);
    const as = server.as(fx.admin.token);
    const site = await newSite(server, fx.admin, fx.org.id);
    const base = `${sitesPath(fx.org.id)}/${site.id}`;
    expect((await as.post(`${base}/publish`).expect(409)).body.error.message).toBe(
      'the site has no site space to publish',
    );
    await as.get(`${base}/published`).expect(404);
    const space = await newSpace(server, fx.admin, fx.org.id);
    await as.post(`${base}/site-spaces`).send({ spaceId: space.id }).expect(201);
    expect((await as.post(`${base}/publish`).expect(200)).body.published).toBe(true);
    expect((await as.post(`${base}/publish`).expect(200)).body.published).toBe(true);
    await as.get(`${base}/published`).expect(200);
    const unpublished = (await as.post(`${base}/unpublish`).expect(200)).body;
    expect(unpublished).toMatchObject({ published: false });
    expect(unpublished.urls).not.toHaveProperty('published');
    await as.get(`${base}/published`).expect(404);
  });

  it('sets the default site space and section', async () => {
    const { fx, base, spaces } = await siteWith(['One', 'Two']);
    const as = server.as(fx.admin.token);
    const [one, two] = (await as.get(`${base}/site-spaces`).expect(200)).body.items;
    await as.patch(base).send({ defaultSiteSpace: two.id }).expect(200);
    expect(
      (await as.get(`${base}/site-spaces`).query({ default: 'true' }).expect(200)).body.items.map((i: Json) => i.id),
    ).toEqual([two.id]);
    expect(
      (await as.get(`${base}/site-spaces`).query({ default: 'false' }).expect(200)).body.items.map((i: Json) => i.id),
    ).toEqual([one.id]);
    const third = await newSpace(server, fx.admin, fx.org.id, { title: 'Three' });
    const section = (await as.post(`${base}/sections`).send({ spaceId: third.id }).expect(201)).body;
    await as.patch(base).send({ defaultSiteSection: section.id }).expect(200);
    const sections = (await as.get(`${base}/sections`).expect(200)).body.items;
    expect(
      sections.map((s: Json) => [s.title, s.default, s.siteSpaces.map((v: Json) => [v.title, v.default])]),
    ).toEqual([
      [
        'Docs',
        false,
        [
          ['One', false],
          ['Two', true],
        ],
      ],
      ['Three', true, [['Three', true]]],
    ]);
    expect((await as.patch(base).send({ defaultSiteSection: 'nope' }).expect(400)).body.error.message).toBe(
      'defaultSiteSection: no such section in this site',
    );
    expect((await as.patch(base).send({ defaultSiteSpace: 'nope' }).expect(400)).body.error.message).toBe(
      'defaultSiteSpace: no such site space in this site',
    );
    expect(spaces).toHaveLength(2);
  });
});

describe('sections, groups and site spaces', () => {
  it('derives paths from titles, unique among siblings; a given duplicate is a 409', async () => {
    const { fx, base } = await siteWith(['Guide', 'Guide', 'Ünïcode ✓', '!!!']);
    const as = server.as(fx.admin.token);
    const items = (await as.get(`${base}/site-spaces`).expect(200)).body.items;
    expect(items.map((i: Json) => i.path)).toEqual(['guide', 'guide-2', 'unicode', 'space']);
    expect(
      (await as.patch(`${base}/site-spaces/${items[1].id}`).send({ path: 'guide' }).expect(409)).body.error.message,
    ).toBe('path: "guide" is already used by another site space at this level');
    expect(
      (await as.patch(`${base}/site-spaces/${items[1].id}`).send({ path: 'Guide_v2.0~x' }).expect(200)).body.path,
    ).toBe('Guide_v2.0~x');
    await as.patch(`${base}/site-spaces/${items[0].id}`).send({ path: 'guide' }).expect(200);

    const a = (
      await as.post(`${base}/sections`).send({ spaceId: items[0].space.id, title: 'Getting started' }).expect(201)
    ).body;
    const b = (
      await as.post(`${base}/sections`).send({ spaceId: items[2].space.id, title: 'Getting started' }).expect(201)
    ).body;
    expect([a.path, b.path]).toEqual(['getting-started', 'getting-started-2']);
    expect(
      (await as.patch(`${base}/sections/${b.id}`).send({ path: 'getting-started' }).expect(409)).body.error.message,
    ).toBe('path: "getting-started" is already used by another section of this site');
    // the same path in another section is another sibling set
    const inA = a.siteSpaces[0];
    expect(
      (await as.patch(`${base}/site-spaces/${b.siteSpaces[0].id}`).send({ path: inA.path }).expect(200)).body.path,
    ).toBe(inA.path);
  });

  it('adds a site space to the named section, else the default section, else the root; the same space twice at a level is a 409', async () => {
    const { fx, site, base, spaces } = await siteWith(['Root']);
    const as = server.as(fx.admin.token);
    const extra = await newSpace(server, fx.admin, fx.org.id, { title: 'Extra' });
    const rootVariant = await as.post(`${base}/site-spaces`).send({ spaceId: extra.id }).expect(201);
    expect(rootVariant.body).toMatchObject({ title: 'Extra', default: false });
    expect(rootVariant.body).not.toHaveProperty('section');
    expect(rootVariant.headers.location).toBe(
      `${server.config.publicBaseUrl}/v1/orgs/${fx.org.id}/sites/${site.id}/site-spaces/${rootVariant.body.id}`,
    );
    expect((await as.post(`${base}/site-spaces`).send({ spaceId: extra.id }).expect(409)).body.error.message).toBe(
      'spaceId: the space is already in this site',
    );

    const s2 = await newSpace(server, fx.admin, fx.org.id, { title: 'Second' });
    const second = (await as.post(`${base}/sections`).send({ spaceId: s2.id }).expect(201)).body;
    const wrapper = (await as.get(`${base}/sections`).expect(200)).body.items[0];
    expect([wrapper.title, wrapper.default, titlesOf(wrapper.siteSpaces)]).toEqual(['Docs', true, ['Root', 'Extra']]);
    const inDefault = (await as.post(`${base}/site-spaces`).send({ spaceId: s2.id }).expect(201)).body;
    expect(inDefault.section).toBe(wrapper.id);
    const named = (
      await as.post(`${base}/site-spaces`).send({ spaceId: spaces[0].id, sectionId: second.id }).expect(201)
    ).body;
    expect([named.section, named.default]).toEqual([second.id, false]);
    expect(
      (await as.post(`${base}/site-spaces`).send({ spaceId: spaces[0].id, sectionId: 'nope' }).expect(400)).body.error
        .message,
    ).toBe('sectionId: no such section in this site');
    const created = (await as.post(`${base}/site-spaces`).send({ spaceId: null, sectionId: second.id }).expect(201))
      .body;
    expect([created.title, created.space.visibility]).toEqual(['Docs', 'private']);
    const fresh = (await as.post(`${base}/sections`).send({ spaceId: null, title: 'Brand new' }).expect(201)).body;
    expect(fresh.siteSpaces.map((v: Json) => [v.title, v.default])).toEqual([['Brand new', true]]);
  });

  it('promotes the next default when the default goes; the last site space takes its section along', async () => {
    const { fx, base, spaces } = await siteWith(['A', 'B', 'C']);
    const as = server.as(fx.admin.token);
    const items = (await as.get(`${base}/site-spaces`).expect(200)).body.items;
    await as.patch(base).send({ defaultSiteSpace: items[1].id }).expect(200);
    await as.delete(`${base}/site-spaces/${items[1].id}`).expect(204);
    await as.delete(`${base}/site-spaces/${items[1].id}`).expect(204);
    expect((await as.get(`${base}/site-spaces`).expect(200)).body.items.map((i: Json) => [i.title, i.default])).toEqual(
      [
        ['A', false],
        ['C', true],
      ],
    );

    const x = (await as.post(`${base}/sections`).send({ spaceId: spaces[1].id, title: 'Xx' }).expect(201)).body;
    const y = (await as.post(`${base}/sections`).send({ spaceId: spaces[1].id, title: 'Yy' }).expect(201)).body;
    const z = (await as.post(`${base}/sections`).send({ spaceId: spaces[1].id, title: 'Zz' }).expect(201)).body;
    await as.patch(base).send({ defaultSiteSection: y.id }).expect(200);
    await as.delete(`${base}/site-spaces/${y.siteSpaces[0].id}`).expect(204);
    const left = (await as.get(`${base}/sections`).expect(200)).body.items;
    expect(left.map((s: Json) => [s.title, s.default])).toEqual([
      ['Docs', false],
      ['Xx', false],
      ['Zz', true],
    ]);
    await as.delete(`${base}/sections/${z.id}`).expect(204);
    await as.delete(`${base}/sections/${z.id}`).expect(204);
    expect((await as.get(`${base}/sections`).expect(200)).body.items.map((s: Json) => [s.title, s.default])).toEqual([
      ['Docs', false],
      ['Xx', true],
    ]);
    expect(x.id).toBeTruthy();
  });

  it("groups sections: membership added (201) and removed (204, also when absent), GitBook's siteSectionGroupId, group deletion", async () => {
    const { fx, base, spaces } = await siteWith(['A']);
    const as = server.as(fx.admin.token);
    const add = async (title: string) =>
      (await as.post(`${base}/sections`).send({ spaceId: spaces[0].id, title }).expect(201)).body;
    const [s1, s2, s3] = [await add('S1'), await add('S2'), await add('S3')];
    const group = (
      await as
        .post(`${base}/section-groups`)
        .send({ title: 'G', icon: 'book', sections: [s2.id] })
        .expect(201)
    ).body;
    expect(group).toMatchObject({ object: 'site-section-group', title: 'G', icon: 'book', draft: false });
    const rootOutline = async () => outline((await as.get(`${base}/structure`).expect(200)).body);
    expect(await rootOutline()).toEqual([
      { section: 'Docs', siteSpaces: ['A'] },
      { section: 'S1', siteSpaces: ['A'] },
      { section: 'S3', siteSpaces: ['A'] },
      { group: 'G', sections: ['S2'] },
    ]);
    const added = await as.post(`${base}/section-groups/${group.id}/sections`).send({ sectionId: s1.id }).expect(201);
    expect(titlesOf(added.body.sections)).toEqual(['S2', 'S1']);
    expect(added.headers.location).toMatch(new RegExp(`/section-groups/${group.id}$`));
    expect(
      (await as.post(`${base}/section-groups/${group.id}/sections`).send({ sectionId: 'nope' }).expect(400)).body.error
        .message,
    ).toBe('sectionId: no such section in this site');
    await as.delete(`${base}/section-groups/${group.id}/sections/${s3.id}`).expect(204);
    await as.delete(`${base}/section-groups/${group.id}/sections/${s2.id}`).expect(204);
    await as.delete(`${base}/section-groups/${group.id}/sections/${s2.id}`).expect(204);
    await as.delete(`${base}/section-groups/nope/sections/${s2.id}`).expect(204);
    expect(await rootOutline()).toEqual([
      { section: 'Docs', siteSpaces: ['A'] },
      { section: 'S3', siteSpaces: ['A'] },
      { group: 'G', sections: ['S1'] },
      { section: 'S2', siteSpaces: ['A'] },
    ]);
    expect(
      (await as.patch(`${base}/sections/${s3.id}`).send({ siteSectionGroupId: group.id }).expect(200)).body
        .sectionGroup,
    ).toBe(group.id);
    expect(
      (await as.patch(`${base}/sections/${s1.id}`).send({ siteSectionGroupId: null }).expect(200)).body,
    ).not.toHaveProperty('sectionGroup');
    expect(
      (await as.patch(`${base}/sections/${s1.id}`).send({ siteSectionGroupId: 'nope' }).expect(400)).body.error.message,
    ).toBe('siteSectionGroupId: no such section group in this site');
    expect(
      (await as.patch(`${base}/section-groups/${group.id}`).send({ title: 'Guides', icon: null }).expect(200)).body,
    ).not.toHaveProperty('icon');
    const inGroup = (
      await as
        .post(`${base}/sections`)
        .send({ spaceId: spaces[0].id, title: 'S4', siteSectionGroupId: group.id })
        .expect(201)
    ).body;
    expect(inGroup.sectionGroup).toBe(group.id);
    expect(titlesOf((await as.get(`${base}/section-groups`).expect(200)).body.items[0].sections)).toEqual(['S3', 'S4']);
    await as.delete(`${base}/section-groups/${group.id}`).expect(204);
    await as.delete(`${base}/section-groups/${group.id}`).expect(204);
    expect(await rootOutline()).toEqual([
      { section: 'Docs', siteSpaces: ['A'] },
      { section: 'S3', siteSpaces: ['A'] },
      { section: 'S4', siteSpaces: ['A'] },
      { section: 'S2', siteSpaces: ['A'] },
      { section: 'S1', siteSpaces: ['A'] },
    ]);
  });

  it('sorts siblings; a pointer at another level, at the item itself, or on both sides is a 400; the deprecated moves sort too', async () => {
    const { fx, base, spaces } = await siteWith(['A', 'B', 'C']);
    const as = server.as(fx.admin.token);
    const [a, b, c] = (await as.get(`${base}/site-spaces`).expect(200)).body.items;
    const sort = (body: object) => as.patch(`${base}/structure/sort`).send(body);
    const order = async () => titlesOf((await as.get(`${base}/site-spaces`).expect(200)).body.items);
    const ref = (item: Json) => ({ type: 'site-space', id: item.id });
    await sort({ item: ref(a) }).expect(200);
    expect(await order()).toEqual(['B', 'C', 'A']);
    await sort({ item: ref(a), position: {} }).expect(200);
    await sort({ item: ref(a), position: { after: ref(b) } }).expect(200);
    expect(await order()).toEqual(['B', 'A', 'C']);
    const message = async (body: object, status = 400) => (await sort(body).expect(status)).body.error.message;
    expect(await message({ item: ref(a), position: { before: ref(b), after: ref(c) } })).toBe(
      'position: give before or after, not both',
    );
    expect(await message({ item: ref(a), position: { before: ref(a) } })).toBe(
      'position.before: an item cannot be placed relative to itself',
    );
    expect(await message({ item: ref(a), position: { before: { type: 'site-space', id: 'nope' } } })).toBe(
      'position.before: site space "nope" is not a sibling of the item',
    );
    expect(await message({ item: { type: 'site-space', id: 'nope' } }, 404)).toBe('site space not found');
    expect(await message({ item: { type: 'site-page', id: a.id } })).toBe(
      'item.type: must be one of site-space, site-section, site-section-group',
    );
    expect(await message({ item: ref(a), extra: 1 })).toBe('extra: unknown field; accepted: item, position');

    // deprecated moves, each with its own pointer shape
    await as
      .post(`${base}/site-spaces/${c.id}/move`)
      .send({ position: { before: { type: 'site-space', siteSpace: b.id } } })
      .expect(200);
    expect(await order()).toEqual(['C', 'B', 'A']);
    await as.post(`${base}/site-spaces/${c.id}/move`).expect(200);
    expect(await order()).toEqual(['B', 'A', 'C']);
    const s1 = (await as.post(`${base}/sections`).send({ spaceId: spaces[0].id, title: 'S1' }).expect(201)).body;
    const group = (await as.post(`${base}/section-groups`).send({ title: 'G' }).expect(201)).body;
    const main = (await as.get(`${base}/sections`).expect(200)).body.items[0];
    // the site spaces now sit in a section: a root-level pointer is at another level
    expect(await message({ item: ref(a), position: { before: { type: 'site-section', id: s1.id } } })).toBe(
      `position.before: site section "${s1.id}" is not a sibling of the item`,
    );
    await as
      .post(`${base}/sections/${s1.id}/move`)
      .send({ position: { before: { type: 'site-section', siteSection: main.id } } })
      .expect(200);
    const moved = await as
      .post(`${base}/section-groups/${group.id}/move`)
      .send({ position: { after: { type: 'site-section', id: s1.id } } })
      .expect(200);
    expect(moved.body.object).toBe('site-section-group');
    expect(
      outline((await as.get(`${base}/structure`).expect(200)).body).map((i: any) => i.section ?? `group ${i.group}`),
    ).toEqual(['S1', 'Docs']);
    expect(titlesOf((await as.get(`${base}/section-groups`).expect(200)).body.items)).toEqual(['G']);
    const doc = (await request(server.app).get('/v1/openapi.json').expect(200)).body;
    const ops = [
      '/sections/{siteSectionId}/move',
      '/section-groups/{siteSectionGroupId}/move',
      '/site-spaces/{siteSpaceId}/move',
    ].map((p) => doc.paths[`/v1/orgs/{organizationId}/sites/{siteId}${p}`].post);
    expect(ops.map((op: Json) => op.deprecated)).toEqual([true, true, true]);
    expect(doc.paths['/v1/orgs/{organizationId}/sites/{siteId}/structure/sort'].patch.deprecated).toBeUndefined();
  });

  it('keeps a total order without duplicates or gaps under parallel sorts', async () => {
    const titles = Array.from({ length: 8 }, (_, i) => `Space ${i}`);
    const { fx, base, site } = await siteWith(titles);
    const as = server.as(fx.admin.token);
    const items: Json[] = (await as.get(`${base}/site-spaces`).expect(200)).body.items;
    const moves = Array.from({ length: 24 }, (_, i) => {
      const item = items[(i * 5) % items.length];
      const anchor = items[(i * 3 + 1) % items.length];
      const position =
        anchor.id === item.id ? {} : { [i % 2 ? 'before' : 'after']: { type: 'site-space', id: anchor.id } };
      return as.patch(`${base}/structure/sort`).send({ item: { type: 'site-space', id: item.id }, position });
    });
    const answers = await Promise.all(moves.map((m) => m.then((r) => r.status)));
    expect(new Set(answers)).toEqual(new Set([200]));
    const rows: Array<{ position: number }> = await server.ds.query(
      'SELECT position FROM site_spaces WHERE siteId = ? ORDER BY position',
      [site.id],
    );
    expect(rows.map((r) => r.position)).toEqual(items.map((_, i) => i));
    const listed = (await as.get(`${base}/site-spaces`).expect(200)).body.items.map((i: Json) => i.id);
    expect([...listed].sort()).toEqual(items.map((i) => i.id).sort());
  });
});

describe('limits and enums', () => {
  it('refuses each out-of-range or unknown value with a 400 naming the field', async () => {
    const { fx, base, spaces } = await siteWith(['A', 'B']);
    const as = server.as(fx.admin.token);
    const section = (await as.post(`${base}/sections`).send({ spaceId: spaces[0].id }).expect(201)).body;
    const group = (await as.post(`${base}/section-groups`).send({ title: 'G' }).expect(201)).body;
    const siteSpace = section.siteSpaces[0];
    const long = (n: number) => 'x'.repeat(n);
    const hostTooLong = `${Array(8).fill('a'.repeat(63)).join('.')}.bc`;
    const cases: Array<[string, string, object, string]> = [
      ['post', sitesPath(fx.org.id), { title: 'A' }, 'title: must be at least 2 characters'],
      ['post', sitesPath(fx.org.id), { title: long(129) }, 'title: must be at most 128 characters'],
      [
        'post',
        sitesPath(fx.org.id),
        { type: 'gold' },
        'type: must be one of basic, premium, ultimate, sponsored, legacy-basic, legacy-premium',
      ],
      [
        'post',
        sitesPath(fx.org.id),
        { visibility: 'private' },
        'visibility: must be one of public, unlisted, share-link, visitor-auth',
      ],
      [
        'post',
        sitesPath(fx.org.id),
        { visibility: 'in-collection' },
        'visibility: must be one of public, unlisted, share-link, visitor-auth',
      ],
      ['post', sitesPath(fx.org.id), { spaces: Array(101).fill(spaces[0].id) }, 'spaces: must have at most 100 items'],
      [
        'post',
        sitesPath(fx.org.id),
        { hostname: 'docs.example.com' },
        'hostname: unknown field; accepted: type, title, visibility, spaces',
      ],
      ['patch', base, { title: 'A' }, 'title: must be at least 2 characters'],
      ['patch', base, { title: long(129) }, 'title: must be at most 128 characters'],
      ['patch', base, { basename: '' }, 'basename: must be at least 1 character'],
      ['patch', base, { basename: long(101) }, 'basename: must be at most 100 characters'],
      [
        'patch',
        base,
        { hostname: 'Docs.Example.com' },
        'hostname: must be a lowercase host name of three or more labels, e.g. docs.example.com',
      ],
      [
        'patch',
        base,
        { hostname: 'example.com' },
        'hostname: must be a lowercase host name of three or more labels, e.g. docs.example.com',
      ],
      ['patch', base, { hostname: hostTooLong }, 'hostname: must be at most 512 characters'],
      [
        'patch',
        base,
        { proxy: 'example.com' },
        'proxy: must be a host and one or more path segments, e.g. example.com/docs',
      ],
      [
        'patch',
        base,
        { proxy: 'https://example.com/docs' },
        'proxy: must be a host and one or more path segments, e.g. example.com/docs',
      ],
      ['patch', base, { proxy: `example.com/${long(501)}` }, 'proxy: must be at most 512 characters'],
      [
        'patch',
        base,
        { visibility: 'in-collection' },
        'visibility: must be one of public, unlisted, share-link, visitor-auth',
      ],
      [
        'patch',
        base,
        { visibility: 'private' },
        'visibility: must be one of public, unlisted, share-link, visitor-auth',
      ],
      ['patch', base, { agentsContext: 'maybe' }, 'agentsContext: must be one of excluded, included'],
      ['patch', base, { adaptiveContent: {} }, 'adaptiveContent.enabled: is required'],
      [
        'patch',
        base,
        { published: true },
        'published: unknown field; accepted: title, visibility, basename, hostname, adaptiveContent, agentsContext, defaultSiteSpace, defaultSiteSection, proxy',
      ],
      ['post', `${base}/sections`, { title: 'Ok' }, 'spaceId: is required'],
      ['post', `${base}/sections`, { spaceId: spaces[1].id, title: 'A' }, 'title: must be at least 2 characters'],
      [
        'post',
        `${base}/sections`,
        { spaceId: spaces[1].id, title: long(129) },
        'title: must be at most 128 characters',
      ],
      ['post', `${base}/sections`, { spaceId: spaces[1].id, icon: long(51) }, 'icon: must be at most 50 characters'],
      ['post', `${base}/sections`, { spaceId: 'nope' }, 'spaceId: no such space in this organization'],
      ['patch', `${base}/sections/${section.id}`, { title: 'A' }, 'title: must be at least 2 characters'],
      ['patch', `${base}/sections/${section.id}`, { path: '' }, 'path: must be at least 1 character'],
      ['patch', `${base}/sections/${section.id}`, { path: long(101) }, 'path: must be at most 100 characters'],
      [
        'patch',
        `${base}/sections/${section.id}`,
        { path: 'a/b' },
        'path: must be letters, digits, "-", "_", "." or "~", starting with a letter or digit',
      ],
      ['patch', `${base}/sections/${section.id}`, { condition: '' }, 'condition: must be at least 1 character'],
      [
        'patch',
        `${base}/sections/${section.id}`,
        { condition: long(1025) },
        'condition: must be at most 1024 characters',
      ],
      [
        'patch',
        `${base}/sections/${section.id}`,
        { description: long(257) },
        'description: must be at most 256 characters',
      ],
      ['patch', `${base}/sections/${section.id}`, { icon: long(51) }, 'icon: must be at most 50 characters'],
      [
        'patch',
        `${base}/sections/${section.id}`,
        { defaultSiteSpace: 'nope' },
        'defaultSiteSpace: no such site space in this section',
      ],
      ['post', `${base}/section-groups`, {}, 'title: is required'],
      ['post', `${base}/section-groups`, { title: ' ' }, 'title: must be at least 1 character'],
      ['post', `${base}/section-groups`, { title: long(101) }, 'title: must be at most 100 characters'],
      ['post', `${base}/section-groups`, { title: 'G', icon: long(51) }, 'icon: must be at most 50 characters'],
      [
        'post',
        `${base}/section-groups`,
        { title: 'G', sections: ['nope'] },
        'sections.0: no such section in this site',
      ],
      ['patch', `${base}/section-groups/${group.id}`, { title: long(101) }, 'title: must be at most 100 characters'],
      ['post', `${base}/section-groups/${group.id}/sections`, {}, 'sectionId: is required'],
      ['post', `${base}/site-spaces`, {}, 'spaceId: is required'],
      ['patch', `${base}/site-spaces/${siteSpace.id}`, { path: '' }, 'path: must be at least 1 character'],
      ['patch', `${base}/site-spaces/${siteSpace.id}`, { path: long(101) }, 'path: must be at most 100 characters'],
      [
        'patch',
        `${base}/site-spaces/${siteSpace.id}`,
        { condition: long(1025) },
        'condition: must be at most 1024 characters',
      ],
      [
        'patch',
        `${base}/site-spaces/${siteSpace.id}`,
        { spaceId: 'nope' },
        'spaceId: no such space in this organization',
      ],
      ['patch', `${base}/structure/sort`, {}, 'item: is required'],
      ['patch', `${base}/structure/sort`, { item: { type: 'site-space' } }, 'item.id: is required'],
      [
        'post',
        `${base}/sections/${section.id}/move`,
        { position: { before: { type: 'site-space', siteSection: section.id } } },
        'position.before.type: must be "site-section"',
      ],
      [
        'post',
        `${base}/site-spaces/${siteSpace.id}/move`,
        { position: { after: { type: 'site-space', id: siteSpace.id } } },
        'position.after.siteSpace: is required',
      ],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await (as as unknown as Record<string, (p: string) => request.Test>)[method](path).send(body);
      expect({ method, path, body, status: res.status, message: res.body.error?.message }).toEqual({
        method,
        path,
        body,
        status: 400,
        message,
      });
    }
    expect((await as.get(sitesPath(fx.org.id)).query({ limit: 1001 }).expect(400)).body.error.message).toBe(
      'limit: must be at most 1000',
    );
    expect((await as.get(`${base}/site-spaces`).query({ default: 'maybe' }).expect(400)).body.error.message).toBe(
      'default: must be one of true, false',
    );
  });
});

describe('access', () => {
  /** Every operation of this area on a site with a section, a group and a site space, with a valid body. */
  async function operations() {
    const { fx, site, base, spaces } = await siteWith(['A', 'B']);
    const as = server.as(fx.admin.token);
    const section = (await as.post(`${base}/sections`).send({ spaceId: spaces[0].id }).expect(201)).body;
    const group = (await as.post(`${base}/section-groups`).send({ title: 'G' }).expect(201)).body;
    await as.post(`${base}/publish`).expect(200);
    const siteSpace = section.siteSpaces[0];
    const ops: Array<{ method: string; path: string; body?: object; write: boolean }> = [
      { method: 'get', path: sitesPath(fx.org.id), write: false },
      { method: 'post', path: sitesPath(fx.org.id), body: { title: 'Another' }, write: true },
      { method: 'get', path: base, write: false },
      { method: 'patch', path: base, body: { title: 'Renamed' }, write: true },
      { method: 'delete', path: base, write: true },
      { method: 'post', path: `${base}/publish`, write: true },
      { method: 'post', path: `${base}/unpublish`, write: true },
      { method: 'get', path: `${base}/published`, write: false },
      { method: 'get', path: `${base}/structure`, write: false },
      {
        method: 'patch',
        path: `${base}/structure/sort`,
        body: { item: { type: 'site-section', id: section.id } },
        write: true,
      },
      { method: 'get', path: `${base}/sections`, write: false },
      { method: 'post', path: `${base}/sections`, body: { spaceId: spaces[1].id }, write: true },
      { method: 'patch', path: `${base}/sections/${section.id}`, body: { title: 'Renamed' }, write: true },
      { method: 'delete', path: `${base}/sections/${section.id}`, write: true },
      { method: 'post', path: `${base}/sections/${section.id}/move`, body: {}, write: true },
      { method: 'get', path: `${base}/section-groups`, write: false },
      { method: 'post', path: `${base}/section-groups`, body: { title: 'H' }, write: true },
      { method: 'patch', path: `${base}/section-groups/${group.id}`, body: { title: 'H' }, write: true },
      { method: 'delete', path: `${base}/section-groups/${group.id}`, write: true },
      {
        method: 'post',
        path: `${base}/section-groups/${group.id}/sections`,
        body: { sectionId: section.id },
        write: true,
      },
      { method: 'delete', path: `${base}/section-groups/${group.id}/sections/${section.id}`, write: true },
      { method: 'post', path: `${base}/section-groups/${group.id}/move`, body: {}, write: true },
      { method: 'get', path: `${base}/site-spaces`, write: false },
      {
        method: 'post',
        path: `${base}/site-spaces`,
        body: { spaceId: spaces[1].id, sectionId: section.id },
        write: true,
      },
      { method: 'patch', path: `${base}/site-spaces/${siteSpace.id}`, body: { path: 'renamed' }, write: true },
      { method: 'delete', path: `${base}/site-spaces/${siteSpace.id}`, write: true },
      { method: 'post', path: `${base}/site-spaces/${siteSpace.id}/move`, body: {}, write: true },
    ];
    return { fx, site, ops };
  }

  const send = (
    agent: { [m: string]: (p: string) => request.Test },
    op: { method: string; path: string; body?: object },
  ) => {
    const req = agent[op.method](op.path);
    return op.body ? req.send(op.body) : req;
  };

  it('answers 401 without a valid token, 404 to another organization, 403 to members without admin on writes', async () => {
    const { fx, site, ops } = await operations();
    const outsider = await createOrg(server.ds);
    const reader = await addMember(server.ds, fx.org, 'read');
    const creator = await addMember(server.ds, fx.org, 'create');
    const guest = await addMember(server.ds, fx.org, null);
    const anonymous = request(server.app) as unknown as { [m: string]: (p: string) => request.Test };
    for (const op of ops) {
      expect([op.method, op.path, (await send(anonymous, op)).status]).toEqual([op.method, op.path, 401]);
      expect([op.method, op.path, (await send(anonymous, op).set('Authorization', 'Bearer dpt_nope')).status]).toEqual([
        op.method,
        op.path,
        401,
      ]);
      const foreign = await send(server.as(outsider.admin.token) as never, op);
      // the published view answers an outsider without a share key as it answers for an unknown site
      const notFound = op.path.endsWith('/published') ? 'published site not found' : 'organization not found';
      // a DELETE of what the caller may not see answers 204 and changes nothing (checked below)
      const unseen = op.method === 'delete' ? [204, undefined] : [404, notFound];
      expect([op.method, op.path, foreign.status, foreign.body.error?.message]).toEqual([
        op.method,
        op.path,
        ...unseen,
      ]);
      // a guest sees the organization, none of its sites
      const asGuest = await send(server.as(guest.token) as never, op);
      const forGuest = op.path === sitesPath(fx.org.id) ? (op.write ? 403 : 200) : unseen[0];
      expect([op.method, op.path, asGuest.status]).toEqual([op.method, op.path, forGuest]);
      for (const member of [reader, creator]) {
        const res = await send(server.as(member.token) as never, op);
        expect([op.method, op.path, res.status]).toEqual([op.method, op.path, op.write ? 403 : 200]);
      }
    }
    expect((await server.as(guest.token).get(sitesPath(fx.org.id)).expect(200)).body).toEqual({ items: [], count: 0 });
    // nothing changed
    const after = (
      await server
        .as(fx.admin.token)
        .get(`${sitesPath(fx.org.id)}/${site.id}`)
        .expect(200)
    ).body;
    expect([after.title, after.published, after.siteSpaces]).toEqual(['Docs', true, 3]);
    expect(
      (
        await server
          .as(reader.token)
          .get(`${sitesPath(fx.org.id)}/${site.id}`)
          .expect(200)
      ).body.permissions,
    ).toEqual({
      view: true,
      access: true,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: false,
    });
  });

  it('answers 404 for an unknown site, section, group or site space; DELETE answers 204', async () => {
    const { fx, site } = await siteWith(['A']);
    const as = server.as(fx.admin.token);
    const base = `${sitesPath(fx.org.id)}/${site.id}`;
    expect((await as.get(`${sitesPath(fx.org.id)}/nope`).expect(404)).body.error.message).toBe('site not found');
    expect((await as.get(`${sitesPath(fx.org.id)}/no%20such`).expect(404)).body.error.message).toBe('site not found');
    expect((await as.patch(`${base}/sections/nope`).send({ title: 'Hello' }).expect(404)).body.error.message).toBe(
      'site section not found',
    );
    expect(
      (await as.patch(`${base}/section-groups/nope`).send({ title: 'Hello' }).expect(404)).body.error.message,
    ).toBe('site section group not found');
    expect((await as.patch(`${base}/site-spaces/nope`).send({ path: 'x' }).expect(404)).body.error.message).toBe(
      'site space not found',
    );
    expect((await as.post(`${base}/site-spaces/nope/move`).expect(404)).body.error.message).toBe(
      'site space not found',
    );
    for (const path of [
      `${sitesPath(fx.org.id)}/nope`,
      `${base}/sections/nope`,
      `${base}/section-groups/nope`,
      `${base}/site-spaces/nope`,
    ])
      await as.delete(path).expect(204);
    // another organization's site, named under this organization, is no site of it
    const other = await siteWith(['B']);
    await as.get(`${sitesPath(fx.org.id)}/${other.site.id}`).expect(404);
    await as.delete(`${sitesPath(fx.org.id)}/${other.site.id}`).expect(204);
    await server.as(other.fx.admin.token).get(other.base).expect(200);
  });
});
