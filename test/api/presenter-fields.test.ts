/**
 * Every answer carries every field the spec lists for its resource, except the ones GitBook's document marks
 * optional, which it carries only with a value (never null), and nothing that is not accounted for:
 * one real answer of each resource kind is held to the checked-in field lists of test/fixtures/spec-fields.ts.
 */
import { newId } from '../../domain/ids';
import { SamlProvider } from '../../entities/SamlProvider';
import { addMember, createOrg } from '../factories';
import { FieldList, SPEC_FIELDS } from '../fixtures/spec-fields';
import { Json, newChangeRequest, newCollection, newSpace } from '../support/api';
import { createPage, png, upload } from '../support/content-forms';
import { useServer } from '../support/server';

const server = useServer();

/** The objects at `path` ("a.b", "a[]" for each item of the array a); fails when there are none. */
function objectsAt(body: Json, path: string): Json[] {
  let current: unknown[] = [body];
  for (const step of path.split('.')) {
    const each = step.endsWith('[]');
    const key = each ? step.slice(0, -2) : step;
    current = current.flatMap((value) => {
      const inner = (value as Json)[key];
      return each ? (inner as unknown[]) : [inner];
    });
  }
  const objects = current.filter((v): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v));
  if (!objects.length) throw new Error(`no object at ${path}: the test content must fill it`);
  return objects;
}

/** The keys each object at every listed path must have, the keys it may have, and the ones never null. */
function expectFields(list: FieldList, body: Json): void {
  const paths = new Set([
    '',
    ...Object.keys(list.nested ?? {}),
    ...Object.keys(list.gitbook?.nested ?? {}),
    ...Object.keys(list.extensions?.nested ?? {}),
  ]);
  for (const path of paths) {
    const pick = (fields?: string[], nested?: Record<string, string[]>) => (path ? nested?.[path] : fields) ?? [];
    const optional = new Set(pick(list.optional?.fields, list.optional?.nested));
    const listed = [...pick(list.fields, list.nested), ...pick(list.gitbook?.fields, list.gitbook?.nested)];
    const required = listed.filter((f) => !optional.has(f));
    const allowed = new Set([...listed, ...optional, ...pick(list.extensions?.fields, list.extensions?.nested)]);
    for (const object of path ? objectsAt(body, path) : [body]) {
      const keys = Object.keys(object);
      // each message names the path, so a failure says which object lacks what
      expect({ path, missing: required.filter((f) => !keys.includes(f)) }).toEqual({ path, missing: [] });
      expect({ path, unlisted: keys.filter((k) => !allowed.has(k)) }).toEqual({ path, unlisted: [] });
      expect({ path, nullOptional: keys.filter((k) => optional.has(k) && object[k] === null) }).toEqual({
        path,
        nullOptional: [],
      });
    }
  }
}

describe('answers carry every field of the spec', () => {
  const answers: Record<string, Json> = {};

  beforeAll(async () => {
    const fx = await createOrg(server.ds);
    const { admin } = fx;
    const alice = await addMember(server.ds, fx.org, 'edit');
    const bob = await addMember(server.ds, fx.org, 'comment');
    const as = server.as(admin.token);
    const orgPath = `/v1/orgs/${fx.org.id}`;

    const team = (
      await as
        .put(`${orgPath}/teams`)
        .send({ title: 'Writers', members: [alice.user.id] })
        .expect(201)
    ).body;
    // inserted as a row: the certificate and URLs are not what this test is about
    const provider = (defaults: Pick<SamlProvider, 'defaultTeamId' | 'defaultRole'>) =>
      server.ds.manager.save(SamlProvider, {
        id: newId(),
        organizationId: fx.org.id,
        label: 'IdP',
        entityID: 'https://idp.example.test',
        certificate: 'PEM',
        ssoURL: 'https://idp.example.test/sso',
        status: 'active',
        createdAt: new Date(),
        ...defaults,
      });
    const saml = await provider({ defaultTeamId: team.id, defaultRole: 'edit' });
    const bareSaml = await provider({ defaultTeamId: null, defaultRole: null });

    const collection = await newCollection(server, admin, fx.org.id, { title: 'Guides' });
    await as.patch(`/v1/collections/${collection.id}`).send({ description: 'How-tos' }).expect(200);
    const space = await newSpace(server, admin, fx.org.id, { title: 'Handbook', emoji: '📗', parent: collection.id });
    const bareSpace = await newSpace(server, admin, fx.org.id);
    const content = `/v1/spaces/${space.id}/content`;

    const file = (await upload(server, admin.token, content, 'logo.png', png(2, 1), 'image/png').expect(201)).body;
    const guide = await createPage(server, admin.token, content, {
      title: 'Guide',
      emoji: '📘',
      markdown: `Install it. See [the logo](file:${file.id}).`,
    });
    const setup = await createPage(server, admin.token, content, {
      title: 'Setup',
      parent: guide.id,
      markdown: 'Set it up.',
    });
    await createPage(server, admin.token, content, {
      title: 'Linux',
      parent: setup.id,
      markdown: 'Install the kernel headers.',
    });

    const changeRequest = await newChangeRequest(server, alice, space.id, { subject: 'Rework' });
    const comments = `/v1/spaces/${space.id}/comments`;
    const comment = (
      await server
        .as(alice.token)
        .post(comments)
        .send({
          page: guide.id,
          node: 'install',
          tableCell: { record: 'r1', definition: 'd1' },
          body: { markdown: 'Which version?' },
        })
        .expect(200)
    ).body;
    const reply = (
      await server
        .as(bob.token)
        .post(`${comments}/${comment.id}/replies`)
        .send({ body: { markdown: 'The latest.' } })
        .expect(200)
    ).body;
    await server
      .as(bob.token)
      .put(`${comments}/${comment.id}`)
      .send({ addedReactions: ['👍'], resolved: true })
      .expect(200);

    // a published site with a proxy, a group holding a section, and site spaces in sections
    const site = (
      await as
        .post(`${orgPath}/sites`)
        .send({ title: 'Handbook site', spaces: [space.id] })
        .expect(201)
    ).body;
    const sitePath = `${orgPath}/sites/${site.id}`;
    const section = (
      await as.post(`${sitePath}/sections`).send({ spaceId: bareSpace.id, title: 'More', icon: 'book' }).expect(201)
    ).body;
    await as
      .post(`${sitePath}/section-groups`)
      .send({ title: 'Group', sections: [section.id] })
      .expect(201);
    await as.patch(sitePath).send({ proxy: 'example.com/handbook', basename: 'hb' }).expect(200);
    await as.post(`${sitePath}/publish`).expect(200);

    const integrationName = `fields-${newId()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}`;
    await as
      .post(`/v1/integrations/${integrationName}`)
      .send({ organization: fx.org.id, title: 'Fields', description: '', script: 'export default {};', scopes: [] })
      .expect(200);
    // installing records an installation_setup event (failed at once: no tunnel), with one trace line
    await as.post(`/v1/integrations/${integrationName}/installations`).send({ organization: fx.org.id }).expect(201);

    const get = async (path: string, query: Record<string, string> = {}) =>
      (await as.get(path).query(query).expect(200)).body;
    Object.assign(answers, {
      user: await get(`/v1/users/${alice.user.id}`),
      organization: await get(orgPath),
      member: await get(`${orgPath}/members/${alice.user.id}`),
      team: await get(`${orgPath}/teams/${team.id}`),
      teamMember: (await get(`${orgPath}/teams/${team.id}/members`)).items[0],
      samlProvider: await get(`${orgPath}/saml/${saml.id}`),
      bareSamlProvider: await get(`${orgPath}/saml/${bareSaml.id}`),
      ssoEntry: (await get(`${orgPath}/sso`)).items[0],
      collection: await get(`/v1/collections/${collection.id}`),
      space: await get(`/v1/spaces/${space.id}`),
      bareSpace: await get(`/v1/spaces/${bareSpace.id}`),
      changeRequest: await get(`/v1/spaces/${space.id}/change-requests/${changeRequest.id}`),
      comment: await get(`${comments}/${comment.id}`),
      commentReply: await get(`${comments}/${comment.id}/replies/${reply.id}`),
      revision: await get(content),
      page: await get(`${content}/page/${guide.id}`),
      pageAsDocument: await get(`${content}/page/${guide.id}`, { format: 'document' }),
      pageByPath: await get(`${content}/path/guide`),
      pageTree: await get(`${content}/pages`),
      file: await get(`${content}/files/${file.id}`),
      linkList: await get(`/v1/spaces/${space.id}/links`),
      backlinkList: await get(`${content}/files/${file.id}/backlinks`),
      spaceSearchResult: (await get(`/v1/spaces/${space.id}/search`, { query: 'kernel' })).items[0],
      organizationSearchResult: (await get(`${orgPath}/search`, { query: 'kernel' })).items[0],
      site: await get(sitePath),
      siteSection: (await get(`${sitePath}/sections`)).items[0],
      siteSectionGroup: (await get(`${sitePath}/section-groups`)).items[0],
      siteSpace: (await get(`${sitePath}/site-spaces`)).items[0],
      publishedSite: await get(`${sitePath}/published`),
      integration: await get(`/v1/integrations/${integrationName}`),
      integrationEvent: (await get(`/v1/integrations/${integrationName}/events`)).items[0],
    });
    answers.integrationEventDetail = await get(
      `/v1/integrations/${integrationName}/events/${answers.integrationEvent.id}`,
    );
  });

  const kinds = Object.keys(SPEC_FIELDS) as Array<keyof typeof SPEC_FIELDS>;
  it.each(kinds)('%s', (kind) => {
    expectFields(SPEC_FIELDS[kind], answers[kind]);
  });

  it('page trees: every page of GET {content}/pages, at every depth', () => {
    for (const page of answers.pageTree.pages) expectFields(SPEC_FIELDS.page, page);
  });

  it('resources without optional values: the same fields', () => {
    expectFields(SPEC_FIELDS.space, answers.bareSpace);
    expectFields(SPEC_FIELDS.samlProvider, answers.bareSamlProvider);
  });

  it("resources inside others: a provider's default team, a team member's organization member", () => {
    expectFields(SPEC_FIELDS.team, answers.samlProvider.defaultTeam);
    expectFields(SPEC_FIELDS.member, answers.teamMember.organization);
  });

  it("optional fields without a value are left out; required and nullable ones keep a value of GitBook's type", () => {
    const { bareSpace, organization, bareSamlProvider, changeRequest, page } = answers;
    const absent = (object: Json, keys: string[]) => expect(keys.filter((k) => k in object)).toEqual([]);
    // GitBook's Space requires an emoji (a string): empty when there is none
    expect(bareSpace.emoji).toBe('');
    absent(bareSpace, ['parent', 'gitSync', 'visitorAuth', 'deletedAt']);
    absent(bareSpace.urls, ['icon']);
    // defaultRole is nullable in GitBook's document (MemberRoleOrGuest), defaultTeam optional
    expect(bareSamlProvider.defaultRole).toBeNull();
    absent(bareSamlProvider, ['defaultTeam']);
    absent(organization, ['hostname', 'useCase', 'billing', 'customHostname', 'blocked', 'internal_billingMigration']);
    expect(organization.trial).toEqual({ status: 'notapplicable', count: 0 });
    absent(changeRequest, ['revisionMerged', 'revisionMergedAncestor']);
    const child = page.pages[0].pages[0];
    absent(child, ['emoji', 'icon', 'description', 'git', 'cover']);
    // fields of ours that GitBook 0.137 lacks are present, null where empty
    expect(child).toMatchObject({ pages: [], computed: null, computedSeed: null });
  });

  it("a page's layout is GitBook's default layout", () => {
    expect(answers.page.layout).toEqual({
      width: 'default',
      cover: true,
      coverSize: 'hero',
      coverMask: 'none',
      title: true,
      description: true,
      tableOfContents: true,
      outline: true,
      pagination: true,
      metadata: true,
      tags: true,
      actions: true,
      anchors: true,
    });
  });
});
