import request from 'supertest';
import { ContentGrant } from '../../entities/ContentGrant';
import { SamlProvider } from '../../entities/SamlProvider';
import { Team } from '../../entities/Team';
import { TeamMember } from '../../entities/TeamMember';
import { Actor, addMember, createOrg, OrgFixture } from '../factories';
import { grant, insertCollection, insertSpace } from '../support/content';
import { useServer } from '../support/server';

const server = useServer();

async function teamRoles(teamId: string): Promise<Record<string, string>> {
  const rows = await server.ds.manager.findBy(TeamMember, { teamId });
  return Object.fromEntries(rows.map((r) => [r.userId, r.role]));
}

describe('teams', () => {
  let fx: OrgFixture;
  let reader: Actor;
  let editor: Actor;
  let teams: string;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    reader = await addMember(server.ds, fx.org, 'read');
    editor = await addMember(server.ds, fx.org, 'edit');
    teams = `/v1/orgs/${fx.org.id}/teams`;
  });

  async function createTeam(title: string, members: string[] = []): Promise<string> {
    const res = await server.as(fx.admin.token).put(teams).send({ title, members }).expect(201);
    return res.body.id;
  }

  it('creates a team with PUT (201 + Location), and PUT with the same title replaces its members (200)', async () => {
    const created = await server
      .as(fx.admin.token)
      .put(teams)
      .send({ title: 'Writers', members: [reader.user.id] })
      .expect(201);
    expect(created.headers.location).toBe(
      `${server.config.publicBaseUrl}/v1/orgs/${fx.org.id}/teams/${created.body.id}`,
    );
    expect(created.body).toEqual({
      object: 'team',
      id: expect.any(String),
      title: 'Writers',
      members: 1,
      spaces: 0,
      createdAt: expect.stringMatching(/Z$/),
      permissions: { admin: true, view: true },
    });
    await server
      .as(fx.admin.token)
      .put(`${teams}/${created.body.id}/members/${reader.user.id}`)
      .send({ role: 'owner' })
      .expect(204);
    const again = await server
      .as(fx.admin.token)
      .put(teams)
      .send({ title: 'WRITERS', members: [reader.user.id, editor.user.id] })
      .expect(200);
    expect(again.headers.location).toBeUndefined();
    expect(again.body).toMatchObject({ id: created.body.id, title: 'Writers', members: 2 });
    expect(await teamRoles(created.body.id)).toEqual({ [reader.user.id]: 'owner', [editor.user.id]: 'member' });
    await server
      .as(fx.admin.token)
      .put(teams)
      .send({ title: 'writers', members: [editor.user.id] })
      .expect(200);
    expect(await teamRoles(created.body.id)).toEqual({ [editor.user.id]: 'member' });
    expect(await server.ds.manager.countBy(Team, { organizationId: fx.org.id })).toBe(1);
  });

  it('creates one team when two PUTs with the same title race', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => server.as(fx.admin.token).put(teams).send({ title: 'Racers' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(await server.ds.manager.countBy(Team, { organizationId: fx.org.id })).toBe(1);
  });

  it('validates the PUT body', async () => {
    const outsider = await createOrg(server.ds);
    const cases: Array<[object, string]> = [
      [{}, 'title: is required'],
      [{ title: ' ' }, 'title: must be at least 1 character'],
      [{ title: 'x'.repeat(256) }, 'title: must be at most 255 characters'],
      [{ title: 7 }, 'title: must be a string, not number'],
      [{ title: 'T', members: 'abc' }, 'members: must be an array, not string'],
      [{ title: 'T', members: Array(1001).fill(reader.user.id) }, 'members: must have at most 1000 items'],
      [{ title: 'T', id: 'x' }, 'id: unknown field; accepted: title, members'],
      [
        { title: 'T', members: [outsider.admin.user.id] },
        `members: "${outsider.admin.user.id}" is not a member of this organization`,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await server.as(fx.admin.token).put(teams).send(body).expect(400);
      expect(res.body.error).toEqual({ code: 400, message });
    }
    expect(await server.ds.manager.countBy(Team, { organizationId: fx.org.id })).toBe(0);
  });

  it('401, 404 for another organization, 403 for a non-admin', async () => {
    await request(server.app).put(teams).send({ title: 'X' }).expect(401);
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).put(teams).send({ title: 'X' }).expect(404);
    await server.as(outsider.admin.token).get(teams).expect(404);
    await server.as(reader.token).put(teams).send({ title: 'X' }).expect(403);
  });

  it('lists teams newest first, paginated, filtered by title and by who can manage them', async () => {
    const ids: string[] = [];
    for (const title of ['Docs A', 'Ops', 'docs B', 'Support']) ids.push(await createTeam(title));
    await server.ds.manager.update(Team, { id: ids[0] }, { createdAt: new Date('2024-01-01T00:00:00Z') });
    await server.ds.manager.update(Team, { id: ids[1] }, { createdAt: new Date('2024-01-02T00:00:00Z') });
    await server.ds.manager.update(Team, { id: ids[2] }, { createdAt: new Date('2024-01-03T00:00:00Z') });
    await server.ds.manager.update(Team, { id: ids[3] }, { createdAt: new Date('2024-01-04T00:00:00Z') });
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await server
        .as(reader.token)
        .get(teams)
        .query({ limit: 3, ...(page ? { page } : {}) })
        .expect(200);
      expect(res.body.count).toBe(4);
      seen.push(...res.body.items.map((t: { id: string }) => t.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual([...ids].reverse());

    const docs = await server.as(reader.token).get(teams).query({ title: 'DOCS' }).expect(200);
    expect(docs.body.items.map((t: { id: string }) => t.id)).toEqual([ids[2], ids[0]]);

    await server
      .as(fx.admin.token)
      .put(`${teams}/${ids[1]}/members/${editor.user.id}`)
      .send({ role: 'owner' })
      .expect(204);
    await server
      .as(fx.admin.token)
      .put(`${teams}/${ids[2]}/members/${editor.user.id}`)
      .send({ role: 'member' })
      .expect(204);
    const managed = await server.as(reader.token).get(teams).query({ owner: editor.user.id }).expect(200);
    expect(managed.body.items.map((t: { id: string }) => t.id)).toEqual([ids[1]]);
    const byAdmin = await server.as(reader.token).get(teams).query({ owner: fx.admin.user.id }).expect(200);
    expect(byAdmin.body.count).toBe(4);
    const byOutsider = await server.as(reader.token).get(teams).query({ owner: 'nobody' }).expect(200);
    expect(byOutsider.body.count).toBe(0);

    const guest = await addMember(server.ds, fx.org, null);
    await server.as(guest.token).get(teams).expect(403);
    const bad = await server.as(reader.token).get(teams).query({ limit: -1 }).expect(400);
    expect(bad.body.error.message).toBe('limit: must be an integer');
  });

  it('counts members and the distinct live spaces reachable through its grants', async () => {
    const id = await createTeam('Readers', [reader.user.id, editor.user.id]);
    const outer = await insertCollection(server.ds, fx.org);
    const inner = await insertCollection(server.ds, fx.org, { parentId: outer.id });
    const direct = await insertSpace(server.ds, fx.org, { parentId: inner.id });
    await insertSpace(server.ds, fx.org, { parentId: outer.id });
    await insertSpace(server.ds, fx.org, { parentId: inner.id, deleted: true });
    const loose = await insertSpace(server.ds, fx.org);
    await insertSpace(server.ds, fx.org);
    await grant(server.ds, fx.org.id, 'collection', outer.id, id, 'read', 'team');
    await grant(server.ds, fx.org.id, 'space', direct.id, id, 'read', 'team');
    await grant(server.ds, fx.org.id, 'space', loose.id, id, 'read', 'team');
    const res = await server.as(reader.token).get(`${teams}/${id}`).expect(200);
    expect(res.body).toMatchObject({
      id,
      title: 'Readers',
      members: 2,
      spaces: 3,
      permissions: { admin: false, view: true },
    });
  });

  it('gets a team: guests only see teams they are in, other organizations get 404', async () => {
    const id = await createTeam('Visible');
    const guest = await addMember(server.ds, fx.org, null);
    await server.as(guest.token).get(`${teams}/${id}`).expect(404);
    await server.as(fx.admin.token).put(`${teams}/${id}/members/${guest.user.id}`).expect(204);
    const res = await server.as(guest.token).get(`${teams}/${id}`).expect(200);
    expect(res.body.permissions).toEqual({ admin: false, view: true });
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).get(`${teams}/${id}`).expect(404);
    await server.as(fx.admin.token).get(`${teams}/unknown`).expect(404);
  });

  it('renames a team (admins and team owners), refusing a title another team has', async () => {
    const id = await createTeam('Old');
    await createTeam('Taken');
    await server.as(fx.admin.token).put(`${teams}/${id}/members/${editor.user.id}`).send({ role: 'owner' }).expect(204);
    const res = await server.as(editor.token).patch(`${teams}/${id}`).send({ title: 'New' }).expect(200);
    expect(res.body).toMatchObject({ id, title: 'New', permissions: { admin: true, view: true } });
    const clash = await server.as(fx.admin.token).patch(`${teams}/${id}`).send({ title: 'TAKEN' }).expect(409);
    expect(clash.body.error).toEqual({ code: 409, message: 'title: a team named "Taken" already exists' });
    await server.as(fx.admin.token).patch(`${teams}/${id}`).send({ title: 'new' }).expect(200);
    await server.as(reader.token).patch(`${teams}/${id}`).send({ title: 'Mine' }).expect(403);
    const bad = await server
      .as(fx.admin.token)
      .patch(`${teams}/${id}`)
      .send({ title: 'x'.repeat(256) })
      .expect(400);
    expect(bad.body.error.message).toBe('title: must be at most 255 characters');
    await server.as(fx.admin.token).patch(`${teams}/${id}`).send({ members: [] }).expect(400);
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).patch(`${teams}/${id}`).send({ title: 'Mine' }).expect(404);
  });

  it('deletes a team with its memberships, grants and SAML default; 204 again when missing (admins only)', async () => {
    const id = await createTeam('Doomed', [reader.user.id]);
    const space = await insertSpace(server.ds, fx.org);
    await grant(server.ds, fx.org.id, 'space', space.id, id, 'read', 'team');
    await server.ds.manager.insert(SamlProvider, {
      id: `saml${id}`.slice(0, 32),
      organizationId: fx.org.id,
      label: 'IdP',
      entityID: 'e',
      certificate: 'c',
      ssoURL: 'https://idp.example',
      defaultTeamId: id,
      defaultRole: null,
      status: 'active',
      createdAt: new Date(),
    });
    await server.as(reader.token).delete(`${teams}/${id}`).expect(403);
    await server.as(fx.admin.token).delete(`${teams}/${id}`).expect(204);
    expect(await server.ds.manager.countBy(TeamMember, { teamId: id })).toBe(0);
    expect(await server.ds.manager.countBy(ContentGrant, { principalId: id })).toBe(0);
    expect((await server.ds.manager.findOneBy(SamlProvider, { organizationId: fx.org.id }))!.defaultTeamId).toBeNull();
    await server.as(fx.admin.token).get(`${teams}/${id}`).expect(404);
    await server.as(fx.admin.token).delete(`${teams}/${id}`).expect(204);
    await server.as(reader.token).delete(`${teams}/${id}`).expect(403);
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).delete(`${teams}/${id}`).expect(204);
  });

  it('lets a team owner delete their team', async () => {
    const id = await createTeam('Owned');
    await server.as(fx.admin.token).put(`${teams}/${id}/members/${editor.user.id}`).send({ role: 'owner' }).expect(204);
    await server.as(editor.token).delete(`${teams}/${id}`).expect(204);
    expect(await server.ds.manager.existsBy(Team, { id })).toBe(false);
  });
});

describe('team members', () => {
  let fx: OrgFixture;
  let members: Actor[];
  let teamId: string;
  let path: string;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    members = [];
    for (let i = 0; i < 4; i++) members.push(await addMember(server.ds, fx.org, 'read'));
    const res = await server.as(fx.admin.token).put(`/v1/orgs/${fx.org.id}/teams`).send({ title: 'Crew' }).expect(201);
    teamId = res.body.id;
    path = `/v1/orgs/${fx.org.id}/teams/${teamId}/members`;
  });

  it('adds by id or e-mail, removes, sets roles; a user both added and removed is removed', async () => {
    const [a, b, c, d] = members;
    await server
      .as(fx.admin.token)
      .put(path)
      .send({
        add: [a.user.id, b.user.email.toUpperCase(), c.user.id],
        memberships: { [b.user.id]: { role: 'owner' } },
      })
      .expect(204);
    expect(await teamRoles(teamId)).toEqual({ [a.user.id]: 'member', [b.user.id]: 'owner', [c.user.id]: 'member' });
    await server
      .as(fx.admin.token)
      .put(path)
      .send({
        add: [d.user.id, a.user.id],
        remove: [a.user.email, c.user.id],
        memberships: { [d.user.email]: { role: 'owner' } },
      })
      .expect(204);
    expect(await teamRoles(teamId)).toEqual({ [b.user.id]: 'owner', [d.user.id]: 'owner' });
    // adding someone already in the team keeps their role
    await server
      .as(fx.admin.token)
      .put(path)
      .send({ add: [b.user.id] })
      .expect(204);
    expect((await teamRoles(teamId))[b.user.id]).toBe('owner');
  });

  it('validates the members change, naming the entry that is not a member', async () => {
    const outsider = await createOrg(server.ds);
    const cases: Array<[object, string]> = [
      [
        { add: [outsider.admin.user.email] },
        `add: "${outsider.admin.user.email}" is not a member of this organization`,
      ],
      [{ remove: ['nobody'] }, 'remove: "nobody" is not a member of this organization'],
      [{ memberships: { nobody: { role: 'owner' } } }, 'memberships: "nobody" is not a member of this organization'],
      [
        { memberships: { [members[0].user.id]: { role: 'admin' } } },
        `memberships.${members[0].user.id}.role: must be one of owner, member`,
      ],
      [{ add: Array(1001).fill(members[0].user.id) }, 'add: must have at most 1000 items'],
      [{ remove: 'x' }, 'remove: must be an array, not string'],
      [{ add: [''] }, 'add.0: must be at least 1 character'],
      [{ replace: [] }, 'replace: unknown field; accepted: add, remove, memberships'],
    ];
    for (const [body, message] of cases) {
      const res = await server.as(fx.admin.token).put(path).send(body).expect(400);
      expect(res.body.error).toEqual({ code: 400, message });
    }
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`u${i}`, { role: 'member' }]));
    const res = await server.as(fx.admin.token).put(path).send({ memberships: many }).expect(400);
    expect(res.body.error.message).toBe('memberships: must have at most 1000 entries');
    expect(await teamRoles(teamId)).toEqual({});
  });

  it('only team admins change members; other organizations get 404', async () => {
    const [a, b] = members;
    await server
      .as(a.token)
      .put(path)
      .send({ add: [b.user.id] })
      .expect(403);
    await server.as(a.token).put(`${path}/${b.user.id}`).expect(403);
    await server.as(a.token).delete(`${path}/${b.user.id}`).expect(403);
    await server.as(fx.admin.token).put(`${path}/${a.user.id}`).send({ role: 'owner' }).expect(204);
    await server
      .as(a.token)
      .put(path)
      .send({ add: [b.user.id] })
      .expect(204);
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).put(path).send({ add: [] }).expect(404);
    await server.as(outsider.admin.token).get(path).expect(404);
    await server.as(outsider.admin.token).delete(`${path}/${b.user.id}`).expect(204); // unseen: nothing changes
  });

  it('puts one member (default role member) and deletes them; 204 also when not in the team', async () => {
    const [a] = members;
    await server.as(fx.admin.token).put(`${path}/${a.user.id}`).send({ role: 'owner' }).expect(204);
    expect(await teamRoles(teamId)).toEqual({ [a.user.id]: 'owner' });
    await server.as(fx.admin.token).put(`${path}/${a.user.id}`).expect(204);
    expect(await teamRoles(teamId)).toEqual({ [a.user.id]: 'member' });
    const bad = await server.as(fx.admin.token).put(`${path}/${a.user.id}`).send({ role: 'boss' }).expect(400);
    expect(bad.body.error.message).toBe('role: must be one of owner, member');
    const outsider = await createOrg(server.ds);
    const notMember = await server.as(fx.admin.token).put(`${path}/${outsider.admin.user.id}`).expect(400);
    expect(notMember.body.error.message).toBe(
      `userId: "${outsider.admin.user.id}" is not a member of this organization`,
    );
    await server.as(fx.admin.token).delete(`${path}/${a.user.id}`).expect(204);
    expect(await teamRoles(teamId)).toEqual({});
    await server.as(fx.admin.token).delete(`${path}/${a.user.id}`).expect(204);
  });

  it('lists team members in the order they joined, paginated, as organization members', async () => {
    for (const [i, m] of members.entries()) {
      await server.ds.manager.insert(TeamMember, {
        teamId,
        userId: m.user.id,
        role: i === 0 ? 'owner' : 'member',
        addedAt: new Date(Date.UTC(2024, 0, i + 1)),
      });
    }
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await server
        .as(members[1].token)
        .get(path)
        .query({ limit: 3, ...(page ? { page } : {}) })
        .expect(200);
      expect(res.body.count).toBe(4);
      seen.push(...res.body.items.map((i: { organization: { id: string } }) => i.organization.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual(members.map((m) => m.user.id));
    const first = await server.as(fx.admin.token).get(path).query({ limit: 1 }).expect(200);
    expect(first.body.items[0]).toEqual({
      organization: expect.objectContaining({
        object: 'member',
        id: members[0].user.id,
        role: 'read',
        teams: 1,
        user: expect.objectContaining({ id: members[0].user.id }),
      }),
      team: { role: 'owner' },
      permissions: { view: true },
    });
  });
});
