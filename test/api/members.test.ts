import { jwtVerify } from 'jose';
import request from 'supertest';
import { issueToken } from '../../domain/auth/tokens';
import { serviceVisitorClaimsKey } from '../../domain/members/service-visitor-claims';
import { addOrUpdateMember } from '../../domain/organizations/membership';
import { ensureUser } from '../../domain/users/users';
import { ContentGrant } from '../../entities/ContentGrant';
import { LinkInvite } from '../../entities/LinkInvite';
import { Member } from '../../entities/Member';
import { Organization } from '../../entities/Organization';
import { Team } from '../../entities/Team';
import { TeamMember } from '../../entities/TeamMember';
import { inTransaction } from '../../platform/db/transactions';
import { Actor, addMember, createOrg, OrgFixture, unique } from '../factories';
import { listAll } from '../support/api';
import { grant, insertCollection, insertSpace } from '../support/content';
import { useServer } from '../support/server';

const server = useServer();

async function setJoinedAt(org: Organization, actor: Actor, iso: string): Promise<void> {
  await server.ds.manager.update(
    Member,
    { organizationId: org.id, userId: actor.user.id },
    { joinedAt: new Date(iso) },
  );
}

async function insertTeam(
  org: Organization,
  title: string,
  members: Array<[Actor, 'owner' | 'member']> = [],
): Promise<Team> {
  const team = server.ds.manager.create(Team, {
    id: unique('team'),
    organizationId: org.id,
    title,
    createdAt: new Date(),
  });
  await server.ds.manager.insert(Team, team);
  for (const [actor, role] of members)
    await server.ds.manager.insert(TeamMember, { teamId: team.id, userId: actor.user.id, role, addedAt: new Date() });
  return team;
}

/** The ids of every page's items: a member's own id, or for a member's teams the team's. */
async function collectIds(
  actor: Actor,
  path: string,
  query: Record<string, string | number>,
): Promise<{ ids: string[]; counts: number[] }> {
  const { items, counts } = await listAll(server, actor, path, query);
  return { ids: items.map((i) => i.id ?? i.team!.id), counts };
}

describe('members list', () => {
  let fx: OrgFixture;
  let alice: Actor;
  let bob: Actor;
  let carol: Actor;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    alice = await addMember(server.ds, fx.org, 'edit', unique('alice'));
    bob = await addMember(server.ds, fx.org, 'read', unique('bob'));
    carol = await addMember(server.ds, fx.org, null, unique('carol'));
    await setJoinedAt(fx.org, fx.admin, '2024-01-01T00:00:00.000Z');
    await setJoinedAt(fx.org, alice, '2024-02-01T00:00:00.000Z');
    await setJoinedAt(fx.org, bob, '2024-03-01T00:00:00.000Z');
    await setJoinedAt(fx.org, carol, '2024-04-01T00:00:00.000Z');
  });

  it('pages through members newest first by default, and oldest first with order=asc', async () => {
    const path = `/v1/orgs/${fx.org.id}/members`;
    const desc = await collectIds(fx.admin, path, { limit: 3 });
    expect(desc.ids).toEqual([carol, bob, alice, fx.admin].map((a) => a.user.id));
    expect(desc.counts).toEqual([4, 4]);
    const asc = await collectIds(fx.admin, path, { limit: 1, order: 'asc' });
    expect(asc.ids).toEqual([fx.admin, alice, bob, carol].map((a) => a.user.id));
  });

  it('presents each member with the spec fields', async () => {
    const res = await server.as(alice.token).get(`/v1/orgs/${fx.org.id}/members`).query({ limit: 10 }).expect(200);
    const guest = res.body.items.find((m: { id: string }) => m.id === carol.user.id);
    expect(guest).toEqual({
      object: 'member',
      id: carol.user.id,
      role: null,
      user: expect.objectContaining({
        object: 'user',
        id: carol.user.id,
        email: carol.user.email,
        displayName: carol.user.displayName,
      }),
      disabled: false,
      joinedAt: '2024-04-01T00:00:00.000Z',
      sso: false,
      spaces: 0,
      teams: 0,
      sites: 0,
    });
  });

  it('filters by role and by a case-insensitive search over name and e-mail', async () => {
    const path = `/v1/orgs/${fx.org.id}/members`;
    const editors = await server.as(fx.admin.token).get(path).query({ role: 'edit' }).expect(200);
    expect(editors.body.items.map((m: { id: string }) => m.id)).toEqual([alice.user.id]);
    expect(editors.body.count).toBe(1);
    const byName = await server
      .as(fx.admin.token)
      .get(path)
      .query({ search: bob.user.displayName.toUpperCase() })
      .expect(200);
    expect(byName.body.items.map((m: { id: string }) => m.id)).toEqual([bob.user.id]);
    const byEmail = await server.as(fx.admin.token).get(path).query({ search: '@EXAMPLE.test' }).expect(200);
    expect(byEmail.body.count).toBe(4);
    const wildcard = await server.as(fx.admin.token).get(path).query({ search: '%' }).expect(200);
    expect(wildcard.body.count).toBe(0);
  });

  it('sorts by lastSeenAt listing only members seen (ping records it)', async () => {
    const path = `/v1/orgs/${fx.org.id}/members`;
    const none = await server.as(fx.admin.token).get(path).query({ sort: 'lastSeenAt' }).expect(200);
    expect(none.body).toEqual({ items: [], count: 0 });
    const ping = await server.as(bob.token).post(`/v1/orgs/${fx.org.id}/ping`).expect(200);
    expect(Object.keys(ping.body)).toEqual(['serviceVisitorClaims']);
    await new Promise((r) => setTimeout(r, 5));
    await server.as(carol.token).post(`/v1/orgs/${fx.org.id}/ping`).expect(200);
    const seen = await collectIds(fx.admin, path, { sort: 'lastSeenAt', limit: 1 });
    expect(seen.ids).toEqual([carol.user.id, bob.user.id]);
    const one = await server.as(fx.admin.token).get(`${path}/${bob.user.id}`).expect(200);
    expect(new Date(one.body.lastSeenAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a cursor taken from another filter', async () => {
    const path = `/v1/orgs/${fx.org.id}/members`;
    const first = await server.as(fx.admin.token).get(path).query({ limit: 1 }).expect(200);
    const res = await server
      .as(fx.admin.token)
      .get(path)
      .query({ limit: 1, role: 'read', page: first.body.next.page })
      .expect(400);
    expect(res.body.error).toEqual({ code: 400, message: 'page: invalid or expired cursor' });
  });

  it('validates the query', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ order: 'up' }, 'order: must be one of asc, desc'],
      [{ role: 'owner' }, 'role: must be one of read, comment, edit, review, create, admin, guest'],
      [{ sort: 'name' }, 'sort: must be one of joinedAt, lastSeenAt'],
      [{ search: 'x'.repeat(257) }, 'search: must be at most 256 characters'],
      [{ limit: '1001' }, 'limit: must be at most 1000'],
    ];
    for (const [query, message] of cases) {
      const res = await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/members`).query(query).expect(400);
      expect(res.body.error).toEqual({ code: 400, message });
    }
  });

  it('401 without a token, 404 for another organization, 403 for a guest', async () => {
    await request(server.app).get(`/v1/orgs/${fx.org.id}/members`).expect(401);
    await server.as('garbage').get(`/v1/orgs/${fx.org.id}/members`).expect(401);
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).get(`/v1/orgs/${fx.org.id}/members`).expect(404);
    await server.as(outsider.admin.token).get(`/v1/orgs/${fx.org.id}/members/${alice.user.id}`).expect(404);
    await server.as(carol.token).get(`/v1/orgs/${fx.org.id}/members`).expect(403);
  });
});

describe('a member', () => {
  let fx: OrgFixture;
  let reader: Actor;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    reader = await addMember(server.ds, fx.org, 'read');
  });

  it('counts the spaces the member can access and their teams', async () => {
    const guest = await addMember(server.ds, fx.org, null);
    const collection = await insertCollection(server.ds, fx.org);
    await insertSpace(server.ds, fx.org, { parentId: collection.id });
    const granted = await insertSpace(server.ds, fx.org);
    await insertSpace(server.ds, fx.org);
    await insertSpace(server.ds, fx.org, { deleted: true });
    await grant(server.ds, fx.org.id, 'space', granted.id, guest.user.id, 'read');
    const team = await insertTeam(fx.org, 'Writers', [[guest, 'member']]);
    await insertTeam(fx.org, 'Others', [[reader, 'member']]);
    await grant(server.ds, fx.org.id, 'collection', collection.id, team.id, 'read', 'team');
    // a team of another organization does not count
    const other = await createOrg(server.ds);
    await insertTeam(other.org, 'Elsewhere', [[guest, 'member']]);

    const g = await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/members/${guest.user.id}`).expect(200);
    expect(g.body).toMatchObject({ id: guest.user.id, role: null, spaces: 2, teams: 1 });
    const r = await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/members/${reader.user.id}`).expect(200);
    expect(r.body).toMatchObject({ role: 'read', spaces: 3, teams: 1 });
  });

  it('404 for a user who is not a member', async () => {
    const outsider = await createOrg(server.ds);
    const res = await server
      .as(fx.admin.token)
      .get(`/v1/orgs/${fx.org.id}/members/${outsider.admin.user.id}`)
      .expect(404);
    expect(res.body.error).toEqual({ code: 404, message: 'member not found' });
  });

  it('changes the role (admins only), null making a guest', async () => {
    const path = `/v1/orgs/${fx.org.id}/members/${reader.user.id}`;
    const res = await server.as(fx.admin.token).patch(path).send({ role: 'review' }).expect(200);
    expect(res.body).toMatchObject({ object: 'member', id: reader.user.id, role: 'review' });
    const guest = await server.as(fx.admin.token).patch(path).send({ role: null }).expect(200);
    expect(guest.body.role).toBeNull();
    expect(
      (await server.ds.manager.findOneBy(Member, { organizationId: fx.org.id, userId: reader.user.id }))!.role,
    ).toBeNull();
  });

  it('validates the role change', async () => {
    const path = `/v1/orgs/${fx.org.id}/members/${reader.user.id}`;
    const cases: Array<[object, string]> = [
      [{ role: 'owner' }, 'role: must be one of read, comment, edit, review, create, admin'],
      [{ role: 'read', sso: true }, 'sso: unknown field; accepted: role'],
    ];
    for (const [body, message] of cases) {
      const res = await server.as(fx.admin.token).patch(path).send(body).expect(400);
      expect(res.body.error).toEqual({ code: 400, message });
    }
    const wrongType = await server.as(fx.admin.token).patch(path).send({ role: 3 }).expect(400);
    expect(wrongType.body.error.message).toMatch(/^role: must be /);
  });

  it('refuses role changes by non-admins (403) and from other organizations (404)', async () => {
    const editor = await addMember(server.ds, fx.org, 'edit');
    await server
      .as(reader.token)
      .patch(`/v1/orgs/${fx.org.id}/members/${editor.user.id}`)
      .send({ role: 'admin' })
      .expect(403);
    await server
      .as(reader.token)
      .patch(`/v1/orgs/${fx.org.id}/members/${reader.user.id}`)
      .send({ role: 'admin' })
      .expect(403);
    const outsider = await createOrg(server.ds);
    await server
      .as(outsider.admin.token)
      .patch(`/v1/orgs/${fx.org.id}/members/${reader.user.id}`)
      .send({ role: 'admin' })
      .expect(404);
  });

  it('keeps at least one admin (409), but lets one of two admins step down', async () => {
    const res = await server
      .as(fx.admin.token)
      .patch(`/v1/orgs/${fx.org.id}/members/${fx.admin.user.id}`)
      .send({ role: 'read' })
      .expect(409);
    expect(res.body.error).toEqual({ code: 409, message: 'an organization must keep at least one admin' });
    await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}/members/${fx.admin.user.id}`).expect(409);
    const second = await addMember(server.ds, fx.org, 'admin');
    await server
      .as(fx.admin.token)
      .patch(`/v1/orgs/${fx.org.id}/members/${fx.admin.user.id}`)
      .send({ role: 'edit' })
      .expect(200);
    await server.as(second.token).delete(`/v1/orgs/${fx.org.id}/members/${second.user.id}`).expect(409);
  });

  it('never lets two concurrent demotions leave the organization without an admin', async () => {
    const second = await addMember(server.ds, fx.org, 'admin');
    const results = await Promise.all([
      server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}/members/${fx.admin.user.id}`).send({ role: 'read' }),
      server.as(second.token).patch(`/v1/orgs/${fx.org.id}/members/${second.user.id}`).send({ role: 'read' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await server.ds.manager.countBy(Member, { organizationId: fx.org.id, role: 'admin' })).toBe(1);
  });

  it('removes a member with their teams and grants; 204 also when not a member', async () => {
    const team = await insertTeam(fx.org, 'Team', [[reader, 'owner']]);
    const space = await insertSpace(server.ds, fx.org);
    await grant(server.ds, fx.org.id, 'space', space.id, reader.user.id, 'admin');
    await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}/members/${reader.user.id}`).expect(204);
    await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/members/${reader.user.id}`).expect(404);
    expect(await server.ds.manager.countBy(TeamMember, { teamId: team.id })).toBe(0);
    expect(await server.ds.manager.countBy(ContentGrant, { principalId: reader.user.id })).toBe(0);
    await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}/members/${reader.user.id}`).expect(204);
    await server.as(reader.token).get(`/v1/orgs/${fx.org.id}`).expect(404);
  });

  it('lets a member (even a guest) leave, but only admins remove others', async () => {
    const guest = await addMember(server.ds, fx.org, null);
    await server.as(reader.token).delete(`/v1/orgs/${fx.org.id}/members/${guest.user.id}`).expect(403);
    await server.as(guest.token).delete(`/v1/orgs/${fx.org.id}/members/${guest.user.id}`).expect(204);
    await server.as(reader.token).delete(`/v1/orgs/${fx.org.id}/members/${reader.user.id}`).expect(204);
    expect(await server.ds.manager.countBy(Member, { organizationId: fx.org.id })).toBe(1);
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).delete(`/v1/orgs/${fx.org.id}/members/${fx.admin.user.id}`).expect(204);
  });

  it('marks a member as SSO (admins only)', async () => {
    const res = await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/members/${reader.user.id}/sso`).expect(200);
    expect(res.body).toMatchObject({ object: 'member', id: reader.user.id, sso: true });
    await server.as(reader.token).post(`/v1/orgs/${fx.org.id}/members/${reader.user.id}/sso`).expect(403);
    const outsider = await createOrg(server.ds);
    await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/members/${outsider.admin.user.id}/sso`).expect(404);
    await server.as(outsider.admin.token).post(`/v1/orgs/${fx.org.id}/members/${reader.user.id}/sso`).expect(404);
  });

  it('ping: any member including guests; 404 for others', async () => {
    const guest = await addMember(server.ds, fx.org, null);
    await server.as(guest.token).post(`/v1/orgs/${fx.org.id}/ping`).expect(200);
    expect(
      (await server.ds.manager.findOneBy(Member, { organizationId: fx.org.id, userId: guest.user.id }))!.lastSeenAt,
    ).toBeInstanceOf(Date);
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).post(`/v1/orgs/${fx.org.id}/ping`).expect(404);
    await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/ping`).send({ x: 1 }).expect(400);
  });

  it('ping returns serviceVisitorClaims: a JWT of the member signed by the service, valid for an hour', async () => {
    const ping = await server.as(reader.token).post(`/v1/orgs/${fx.org.id}/ping`).expect(200);
    const key = serviceVisitorClaimsKey(server.config.cursorSecret);
    const { payload, protectedHeader } = await jwtVerify(ping.body.serviceVisitorClaims, key, {
      issuer: server.config.publicBaseUrl,
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: reader.user.id, organization: fx.org.id, role: 'read' });
    expect(payload.exp! - payload.iat!).toBe(3600);
    // another secret does not verify it
    await expect(jwtVerify(ping.body.serviceVisitorClaims, serviceVisitorClaimsKey('x'.repeat(32)))).rejects.toThrow();
    await request(server.app).post(`/v1/orgs/${fx.org.id}/ping`).expect(401);
  });

  it("lists the member's teams with their team role, filtered by title and paginated", async () => {
    const a = await insertTeam(fx.org, 'Alpha docs', [[reader, 'owner']]);
    const b = await insertTeam(fx.org, 'Beta docs', [[reader, 'member']]);
    const c = await insertTeam(fx.org, 'Gamma', [[reader, 'member']]);
    await insertTeam(fx.org, 'Not mine DOCS');
    await server.ds.manager.update(Team, { id: a.id }, { createdAt: new Date('2024-01-01T00:00:00Z') });
    await server.ds.manager.update(Team, { id: b.id }, { createdAt: new Date('2024-01-02T00:00:00Z') });
    await server.ds.manager.update(Team, { id: c.id }, { createdAt: new Date('2024-01-03T00:00:00Z') });
    const path = `/v1/orgs/${fx.org.id}/members/${reader.user.id}/teams`;
    const all = await collectIds(reader, path, { limit: 2 });
    expect(all.ids).toEqual([c.id, b.id, a.id]);
    expect(all.counts).toEqual([3, 3]);
    const docs = await server.as(fx.admin.token).get(path).query({ title: 'DOCS' }).expect(200);
    expect(docs.body.count).toBe(2);
    expect(docs.body.items[1]).toEqual({
      team: {
        object: 'team',
        id: a.id,
        title: 'Alpha docs',
        members: 1,
        spaces: 0,
        createdAt: '2024-01-01T00:00:00.000Z',
        permissions: { admin: true, view: true },
      },
      member: { role: 'owner' },
    });
    await server.as(fx.admin.token).get(path).query({ title: '' }).expect(400);
    const guest = await addMember(server.ds, fx.org, null);
    await server.as(guest.token).get(path).expect(403);
  });
});

describe('link invites', () => {
  it('deletes an invite of the organization (admins), 204 also when missing', async () => {
    const fx = await createOrg(server.ds);
    const other = await createOrg(server.ds);
    const invite = { id: unique('inv'), organizationId: fx.org.id, role: 'read' as const, createdAt: new Date() };
    const foreign = { id: unique('inv'), organizationId: other.org.id, role: null, createdAt: new Date() };
    await server.ds.manager.insert(LinkInvite, [invite, foreign]);
    const reader = await addMember(server.ds, fx.org, 'read');
    await server.as(reader.token).delete(`/v1/orgs/${fx.org.id}/link-invites/${invite.id}`).expect(403);
    await server.as(other.admin.token).delete(`/v1/orgs/${fx.org.id}/link-invites/${invite.id}`).expect(204);
    await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}/link-invites/${foreign.id}`).expect(204);
    expect(await server.ds.manager.existsBy(LinkInvite, { id: foreign.id })).toBe(true);
    await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}/link-invites/${invite.id}`).expect(204);
    expect(await server.ds.manager.existsBy(LinkInvite, { id: invite.id })).toBe(false);
    await server.as(fx.admin.token).delete(`/v1/orgs/${fx.org.id}/link-invites/${invite.id}`).expect(204);
  });
});

describe('organizations by e-mail domain', () => {
  async function userAt(domain: string): Promise<Actor> {
    return inTransaction(server.ds, async (db) => {
      const user = await ensureUser(db, `${unique('u')}@${domain}`);
      return { user, token: (await issueToken(db, user.id, 'test')).secret };
    });
  }

  it('lists every claiming organization to a user of the domain, only their own to others', async () => {
    const domain = `${unique('d')}.example`;
    const mine = await createOrg(server.ds);
    const theirs = await createOrg(server.ds);
    const unrelated = await createOrg(server.ds);
    // each claim is made by an admin of the domain (an admin claims only their own)
    for (const fx of [mine, theirs]) {
      const admin = await userAt(domain);
      await addOrUpdateMember(server.ds.manager, fx.org.id, admin.user.id, 'admin');
      await server
        .as(admin.token)
        .patch(`/v1/orgs/${fx.org.id}`)
        .send({ emailDomains: [domain] })
        .expect(200);
    }

    const newcomer = await userAt(domain);
    const found = await server.as(newcomer.token).get(`/v1/email-domains/${domain.toUpperCase()}/orgs`).expect(200);
    expect(found.body.organizations.map((o: { id: string }) => o.id).sort()).toEqual(
      [mine.org.id, theirs.org.id].sort(),
    );
    expect(found.body.organizations[0]).toMatchObject({
      object: 'organization',
      emailDomains: [domain],
      permissions: { view: false },
    });

    const outsider = await userAt(`${unique('o')}.example`);
    await server.ds.manager.insert(Member, {
      organizationId: mine.org.id,
      userId: outsider.user.id,
      role: 'read',
      disabled: false,
      sso: false,
      joinedAt: new Date(),
      lastSeenAt: null,
    });
    const own = await server.as(outsider.token).get(`/v1/email-domains/${domain}/orgs`).expect(200);
    expect(own.body.organizations.map((o: { id: string }) => o.id)).toEqual([mine.org.id]);
    const none = await server.as(unrelated.admin.token).get(`/v1/email-domains/${domain}/orgs`).expect(200);
    expect(none.body).toEqual({ organizations: [] });
  });

  it('validates the domain', async () => {
    const fx = await createOrg(server.ds);
    const res = await server.as(fx.admin.token).get('/v1/email-domains/not_a_domain/orgs').expect(400);
    expect(res.body.error).toEqual({ code: 400, message: 'emailDomain: has an invalid format' });
    await request(server.app).get('/v1/email-domains/example.com/orgs').expect(401);
  });
});
