/**
 * Sites, sections, section groups and site spaces (issue 10 §1, §2): the whole story of building and
 * publishing a site, the defaults, paths and orders, and what every operation refuses.
 */
import { createOrg } from '../factories';
import { Json, newSpace } from '../support/api';
import { newSite, outline, sitesPath } from '../support/sites';
import { useServer } from '../support/server';

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
    expect(site).toMatchObject({ object: 'site', title: 'Acme docs', type: 'basic', visibility: 'public', published: false, siteSpaces: 2, urls: { published: null } });
    const base = `${sitesPath(org.id)}/${site.id}`;

    const rootSpaces = (await as.get(`${base}/site-spaces`).expect(200)).body;
    expect(rootSpaces.items.map((s: Json) => [s.title, s.path, s.default, s.section])).toEqual([
      ['Guide', 'guide', true, null],
      ['API reference', 'api-reference', false, null],
    ]);
    expect((await as.get(`${base}/structure`).expect(200)).body.type).toBe('siteSpaces');

    // the first section takes the root site spaces into a section named after the site
    const changelogSection = (await as.post(`${base}/sections`).send({ spaceId: changelog.id, icon: 'clock' }).expect(201)).body;
    expect(changelogSection).toMatchObject({ object: 'site-section', title: 'Changelog', path: 'changelog', icon: 'clock', default: false, sectionGroup: null });
    const faqSection = (await as.post(`${base}/sections`).send({ spaceId: faq.id, title: 'Questions' }).expect(201)).body;
    const sections = (await as.get(`${base}/sections`).expect(200)).body.items;
    expect(sections.map((s: Json) => [s.title, s.default, s.siteSpaces.map((v: Json) => v.title)])).toEqual([
      ['Acme docs', true, ['Guide', 'API reference']],
      ['Changelog', false, ['Changelog']],
      ['Questions', false, ['FAQ']],
    ]);
    const main = sections[0];

    const group = (await as.post(`${base}/section-groups`).send({ title: 'More', sections: [faqSection.id, changelogSection.id] }).expect(201)).body;
    expect(group.sections.map((s: Json) => s.title)).toEqual(['Questions', 'Changelog']);

    const sort = (item: object, position?: object) => as.patch(`${base}/structure/sort`).send({ item, ...(position ? { position } : {}) });
    await sort({ type: 'site-section-group', id: group.id }, { before: { type: 'site-section', id: main.id } }).expect(200);
    await sort({ type: 'site-section', id: changelogSection.id }, { before: { type: 'site-section', id: faqSection.id } }).expect(200);
    const apiVariant = main.siteSpaces[1];
    const sorted = (await sort({ type: 'site-space', id: apiVariant.id }, { before: { type: 'site-space', id: main.siteSpaces[0].id } }).expect(200)).body;
    expect(sorted).toMatchObject({ object: 'site-space', id: apiVariant.id, default: false, section: main.id });

    const published = (await as.post(`${base}/publish`).expect(200)).body;
    expect(published).toMatchObject({ published: true, urls: { published: `${server.config.publishedBaseUrl}/sites/${site.id}` } });

    const view = (await as.get(`${base}/published`).expect(200)).body;
    expect(Object.keys(view).sort()).toEqual(['customizations', 'object', 'scripts', 'site', 'structure']);
    expect(view).toMatchObject({ object: 'published-content-site', site: { id: site.id, published: true, siteSpaces: 4 }, scripts: [], customizations: { siteSpaces: {} } });
    expect(view.structure.type).toBe('sections');
    expect(outline(view.structure)).toEqual([
      { group: 'More', sections: ['Changelog', 'Questions'] },
      { section: 'Acme docs', siteSpaces: ['API reference', 'Guide'] },
    ]);
    const acme = view.structure.structure[1];
    expect(acme).toMatchObject({ default: true, urls: { published: `${server.config.publishedBaseUrl}/sites/${site.id}/acme-docs` } });
    expect(acme.siteSpaces[1]).toMatchObject({ default: true, space: { object: 'space', id: guide.id, title: 'Guide' }, urls: { published: `${server.config.publishedBaseUrl}/sites/${site.id}/acme-docs/guide` } });
  });
});
