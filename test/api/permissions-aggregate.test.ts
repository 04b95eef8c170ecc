/**
 * Who can access a space, a collection or a site, with the role they end up with: the aggregate lists. The role an
 * aggregate names is the one each member's requests are authorized with, which the tree test checks by probing what
 * every member can actually do through the API.
 */
import request from 'supertest';
import { atLeast, type Role } from '../../domain/access/roles';
import { Member } from '../../entities/Member';
import { Actor, addMember, createOrg, OrgFixture } from '../factories';
import { Json, listAll, newCollection, newSpace } from '../support/api';
import { useGitBookClient } from '../support/gitbook-client';
import { useServer } from '../support/server';

const server = useServer();
const gitbookFor = useGitBookClient(server);

const client = (actor: Actor) => gitbookFor(actor.token);

async function newTeam(fx: OrgFixture, title: string, members: Actor[]): Promise<string> {
  const body = { title, members: members.map((m) => m.user.id) };
  return (await server.as(fx.admin.token).put(`/v1/orgs/${fx.org.id}/teams`).send(body).expect(201)).body.id;
}

async function disable(fx: OrgFixture, actor: Actor): Promise<void> {
  await server.ds.manager.update(Member, { organizationId: fx.org.id, userId: actor.user.id }, { disabled: true });
}

/** Every item of an aggregate, page by page, as user id → [role, origin]. */
async function aggregate(fx: OrgFixture, path: string, limit = 2): Promise<Map<string, [Role, Json]>> {
  const listed = await listAll(server, fx.admin, path, { limit });
  return new Map(listed.items.map((i) => [i.user.id, [i.permission, i.origin]]));
}

describe('the aggregate of who can access content', () => {
  let fx: OrgFixture;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
  });

  it('names each role and where it comes from, highest first, filtered by role, without disabled members or guests without a grant', async () => {
    const reader = await addMember(server.ds, fx.org, 'read');
    const editor = await addMember(server.ds, fx.org, 'edit');
    const guest = await addMember(server.ds, fx.org, null);
    const teamGuest = await addMember(server.ds, fx.org, null);
    const outsiderGuest = await addMember(server.ds, fx.org, null);
    const gone = await addMember(server.ds, fx.org, 'admin');
    await disable(fx, gone);
    const collection = await newCollection(server, fx.admin, fx.org.id);
    await server
      .as(fx.admin.token)
      .patch(`/v1/collections/${collection.id}`)
      .send({ defaultLevel: 'comment' })
      .expect(200);
    const space = await newSpace(server, fx.admin, fx.org.id, { parent: collection.id });
    const team = await newTeam(fx, 'Reviewers', [teamGuest]);
    const api = client(fx.admin);
    await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${space.id}/permissions`)
      .send({ role: 'review', users: [guest.user.id] })
      .expect(204);
    await server
      .as(fx.admin.token)
      .post(`/v1/collections/${collection.id}/permissions`)
      .send({ role: 'admin', teams: [team] })
      .expect(204);

    const first = (await api.spaces.listPermissionsAggregateInSpace(space.id, { limit: 3 })).data;
    expect(first.count).toBe(5);
    expect(first.next).toBeDefined();
    const all = await aggregate(fx, `/v1/spaces/${space.id}/permissions/aggregate`);
    const org = { organization: fx.org.id, team: null };
    expect([...all.entries()]).toEqual(
      expect.arrayContaining([
        [fx.admin.user.id, ['admin', { type: 'organization', via: 'role', ...org }]],
        [teamGuest.user.id, ['admin', { type: 'collection', collection: collection.id, via: 'team', team }]],
        [guest.user.id, ['review', { type: 'space', space: space.id, via: 'user', team: null }]],
        [
          reader.user.id,
          ['comment', { type: 'collection', collection: collection.id, via: 'defaultLevel', team: null }],
        ],
        [
          editor.user.id,
          ['comment', { type: 'collection', collection: collection.id, via: 'defaultLevel', team: null }],
        ],
      ]),
    );
    expect(all.size).toBe(5);
    expect(all.has(outsiderGuest.user.id) || all.has(gone.user.id)).toBe(false);
    // highest role first
    const roles = [...all.values()].map(([role]) => role);
    expect(roles).toEqual(['admin', 'admin', 'review', 'comment', 'comment']);

    const reviewers = (await api.spaces.listPermissionsAggregateInSpace(space.id, { role: 'review' as never })).data;
    expect(reviewers.items.map((i) => i.user.id)).toEqual([guest.user.id]);
    expect(reviewers.count).toBe(1);

    const onCollection = await aggregate(fx, `/v1/collections/${collection.id}/permissions/aggregate`);
    expect(onCollection.get(guest.user.id)).toBeUndefined();
    expect(onCollection.get(reader.user.id)).toEqual([
      'comment',
      { type: 'collection', collection: collection.id, via: 'defaultLevel', team: null },
    ]);
    expect((await api.collections.listPermissionsAggregateInCollection(collection.id)).data.count).toBe(4);
  });

  it('refuses a bad role filter or cursor, 401, 404 to other organizations and to those who cannot see, 403 to non-admins', async () => {
    const space = await newSpace(server, fx.admin, fx.org.id);
    const collection = await newCollection(server, fx.admin, fx.org.id);
    const site = (
      await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/sites`).send({ title: 'Docs site' }).expect(201)
    ).body;
    const paths = [
      `/v1/spaces/${space.id}/permissions/aggregate`,
      `/v1/collections/${collection.id}/permissions/aggregate`,
      `/v1/orgs/${fx.org.id}/sites/${site.id}/permissions/aggregate`,
    ];
    const outsider = await createOrg(server.ds);
    const guest = await addMember(server.ds, fx.org, null);
    const creator = await addMember(server.ds, fx.org, 'create');
    for (const path of paths) {
      await request(server.app).get(path).expect(401);
      await server.as(outsider.admin.token).get(path).expect(404);
      await server.as(guest.token).get(path).expect(404);
      await server.as(creator.token).get(path).expect(403);
      const bad = await server.as(fx.admin.token).get(path).query({ page: 'forged.cursor' }).expect(400);
      expect(bad.body.error.message).toBe('page: invalid or expired cursor');
    }
    const role = await server.as(fx.admin.token).get(paths[0]).query({ role: 'owner' }).expect(400);
    expect(role.body.error.message).toBe('role: must be one of read, comment, edit, review, create, admin');
  });
});

describe('the aggregate of who can access a site', () => {
  it("lists the organization's members with their organization role, guests and disabled members left out", async () => {
    const fx = await createOrg(server.ds);
    const editor = await addMember(server.ds, fx.org, 'edit');
    const guest = await addMember(server.ds, fx.org, null);
    const gone = await addMember(server.ds, fx.org, 'read');
    await disable(fx, gone);
    const space = await newSpace(server, fx.admin, fx.org.id);
    // a grant on the site's space gives a guest no access to the site
    await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${space.id}/permissions`)
      .send({ role: 'admin', users: [guest.user.id] })
      .expect(204);
    const site = (
      await server
        .as(fx.admin.token)
        .post(`/v1/orgs/${fx.org.id}/sites`)
        .send({ title: 'Docs site', spaces: [space.id] })
        .expect(201)
    ).body;
    const listed = (await client(fx.admin).orgs.listPermissionsAggregateInSite(fx.org.id, site.id)).data;
    expect(listed.count).toBe(2);
    const origin = { type: 'organization', organization: fx.org.id };
    expect(listed.items.map((i) => [i.user.id, i.permission, i.origin])).toEqual([
      [fx.admin.user.id, 'admin', origin],
      [editor.user.id, 'edit', origin],
    ]);
    // each of them can read the site, the guest cannot
    await server.as(editor.token).get(`/v1/orgs/${fx.org.id}/sites/${site.id}`).expect(200);
    await server.as(guest.token).get(`/v1/orgs/${fx.org.id}/sites/${site.id}`).expect(404);
  });
});

/** What a member can do on a space, each ability probed by an operation that needs it (never by `permissions`). */
const SPACE_ABILITIES = ['read', 'comment', 'edit', 'review', 'admin'] as const;
/** The same on a collection, where comment, edit and review make no difference. */
const COLLECTION_ABILITIES = ['read', 'create', 'admin'] as const;

/** `refusals`: the statuses that say no (creating in a collection one cannot see is a 400 naming `parent`). */
function allowed(status: number, what: string, refusals = [403, 404]): boolean {
  if (status >= 200 && status < 300) return true;
  if (refusals.includes(status)) return false;
  throw new Error(`${what}: unexpected ${status}`);
}

async function changeRequestWithPage(admin: Actor, spaceId: string): Promise<string> {
  const cr = await server.as(admin.token).post(`/v1/spaces/${spaceId}/change-requests`).send({ subject: 'Probe' });
  await server
    .as(admin.token)
    .post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/pages`)
    .send({ title: `Probe ${cr.body.number}`, markdown: 'Probe.' })
    .expect(201);
  return cr.body.id;
}

describe('the aggregate agrees with what each member can do', () => {
  it('for every member of a tree of collections with default levels, teams and grants', async () => {
    const fx = await createOrg(server.ds);
    const actors: Record<string, Actor> = {
      admin: fx.admin,
      reader: await addMember(server.ds, fx.org, 'read'),
      editor: await addMember(server.ds, fx.org, 'edit'),
      creator: await addMember(server.ds, fx.org, 'create'),
      commenter: await addMember(server.ds, fx.org, 'comment'),
      teamGuest: await addMember(server.ds, fx.org, null),
      userGuest: await addMember(server.ds, fx.org, null),
      bareGuest: await addMember(server.ds, fx.org, null),
      disabled: await addMember(server.ds, fx.org, 'edit'),
    };
    await disable(fx, actors.disabled);
    const as = (token: string) => server.as(token);
    // c1 (no default level) ⊃ c2 (comment) ⊃ c3 (none) ⊃ deep; c1 ⊃ shallow (read)
    const c1 = await newCollection(server, fx.admin, fx.org.id, { title: 'One' });
    const c2 = await newCollection(server, fx.admin, fx.org.id, { title: 'Two', parent: c1.id });
    await as(fx.admin.token).patch(`/v1/collections/${c2.id}`).send({ defaultLevel: 'comment' }).expect(200);
    const c3 = await newCollection(server, fx.admin, fx.org.id, { title: 'Three', parent: c2.id });
    const deep = await newSpace(server, fx.admin, fx.org.id, { title: 'Deep', parent: c3.id });
    const shallow = await newSpace(server, fx.admin, fx.org.id, { title: 'Shallow', parent: c1.id });
    await as(fx.admin.token).patch(`/v1/spaces/${shallow.id}`).send({ defaultLevel: 'read' }).expect(200);
    const writers = await newTeam(fx, 'Writers', [actors.teamGuest, actors.editor]);
    const builders = await newTeam(fx, 'Builders', [actors.reader]);
    const invite = (path: string, body: object) =>
      as(fx.admin.token).post(`${path}/permissions`).send(body).expect(204);
    await invite(`/v1/collections/${c1.id}`, { role: 'edit', teams: [writers] });
    await invite(`/v1/collections/${c3.id}`, { role: 'create', teams: [builders] });
    await invite(`/v1/collections/${c3.id}`, { role: 'admin', users: [actors.commenter.user.id] });
    await invite(`/v1/spaces/${deep.id}`, { role: 'review', users: [actors.userGuest.user.id] });

    const roleOf = async (path: string) => {
      const all = await aggregate(fx, `${path}/permissions/aggregate`);
      return Object.fromEntries(Object.entries(actors).map(([name, a]) => [name, all.get(a.user.id)?.[0] ?? null]));
    };
    const deepRoles = await roleOf(`/v1/spaces/${deep.id}`);
    // the rule, pinned: the default level of c2 lowers the organization roles, grants raise them
    expect(deepRoles).toEqual({
      admin: 'admin',
      reader: 'create',
      editor: 'edit',
      creator: 'comment',
      commenter: 'admin',
      teamGuest: 'edit',
      userGuest: 'review',
      bareGuest: null,
      disabled: null,
    });

    let pending: Record<string, string> = {};
    const probeSpace = async (spaceId: string, actor: Actor, ability: (typeof SPACE_ABILITIES)[number]) => {
      const path = `/v1/spaces/${spaceId}`;
      let res: request.Response;
      if (ability === 'read') res = await as(actor.token).get(path);
      else if (ability === 'comment')
        res = await as(actor.token)
          .post(`${path}/comments`)
          .send({ body: { markdown: 'Hi.' } });
      else if (ability === 'edit')
        res = await as(actor.token).post(`${path}/change-requests`).send({ subject: 'Mine' });
      else if (ability === 'review') {
        pending[spaceId] ??= await changeRequestWithPage(fx.admin, spaceId);
        res = await as(actor.token).post(`${path}/change-requests/${pending[spaceId]}/merge`);
        if (res.status === 200) delete pending[spaceId];
      } else res = await as(actor.token).patch(path).send({ title: 'Renamed' });
      return allowed(res.status, `${ability} on ${path}`);
    };
    const probeCollection = async (
      collectionId: string,
      actor: Actor,
      ability: (typeof COLLECTION_ABILITIES)[number],
    ) => {
      const path = `/v1/collections/${collectionId}`;
      let res: request.Response;
      if (ability === 'read') res = await as(actor.token).get(path);
      else if (ability === 'create') {
        res = await as(actor.token).post(`/v1/orgs/${fx.org.id}/spaces`).send({ title: 'Made', parent: collectionId });
        return allowed(res.status, `${ability} on ${path}`, [400, 403, 404]);
      } else res = await as(actor.token).patch(path).send({ description: 'Probed' });
      return allowed(res.status, `${ability} on ${path}`);
    };

    const checked: string[] = [];
    for (const [path, abilities, probe] of [
      [`/v1/spaces/${deep.id}`, SPACE_ABILITIES, (a: Actor, x: string) => probeSpace(deep.id, a, x as never)],
      [`/v1/spaces/${shallow.id}`, SPACE_ABILITIES, (a: Actor, x: string) => probeSpace(shallow.id, a, x as never)],
      [
        `/v1/collections/${c3.id}`,
        COLLECTION_ABILITIES,
        (a: Actor, x: string) => probeCollection(c3.id, a, x as never),
      ],
      [
        `/v1/collections/${c1.id}`,
        COLLECTION_ABILITIES,
        (a: Actor, x: string) => probeCollection(c1.id, a, x as never),
      ],
    ] as const) {
      const roles = await roleOf(path);
      pending = {};
      for (const [name, actor] of Object.entries(actors)) {
        const can: Record<string, boolean> = {};
        for (const ability of abilities) can[ability] = await probe(actor, ability);
        const expected = Object.fromEntries(abilities.map((a) => [a, atLeast(roles[name], a as Role)]));
        expect({ path, member: name, role: roles[name], can }).toEqual({
          path,
          member: name,
          role: roles[name],
          can: expected,
        });
        checked.push(`${path}:${name}:${roles[name]}`);
      }
    }
    expect(checked).toHaveLength(4 * Object.keys(actors).length);
    // the shallow space's own default level, and the collections' roles, as the rule says
    expect(await roleOf(`/v1/spaces/${shallow.id}`)).toMatchObject({ reader: 'read', creator: 'read', editor: 'edit' });
    expect(await roleOf(`/v1/collections/${c1.id}`)).toMatchObject({
      reader: 'read',
      creator: 'create',
      commenter: 'comment',
    });
  });
});
