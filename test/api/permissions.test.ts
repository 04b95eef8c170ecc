/**
 * Roles given on spaces and collections, listed and changed on GitBook's paths through its own client: the lists of
 * direct grants to users and teams, PATCH and the invitation of several at once, and our PUT, which follows the same
 * rule.
 */
import { GitBookAPIError, MemberRole } from '@gitbook/api';
import request from 'supertest';
import { ContentGrant } from '../../entities/ContentGrant';
import { Actor, addMember, createOrg, OrgFixture } from '../factories';
import { insertCollection, insertSpace } from '../support/content';
import { useGitBookClient } from '../support/gitbook-client';
import { useServer } from '../support/server';

const server = useServer();
const gitbookFor = useGitBookClient(server);

const client = (actor: Actor) => gitbookFor(actor.token);

async function newTeam(fx: OrgFixture, title: string, members: string[] = []): Promise<string> {
  const res = await server.as(fx.admin.token).put(`/v1/orgs/${fx.org.id}/teams`).send({ title, members }).expect(201);
  return res.body.id;
}

async function grantsOn(targetId: string): Promise<Array<[string, string, string]>> {
  const rows = await server.ds.manager.find(ContentGrant, { where: { targetId }, order: { principalId: 'ASC' } });
  return rows.map((g) => [g.principalKind, g.principalId, g.role]);
}

describe('roles given on a space or collection', () => {
  let fx: OrgFixture;
  let alice: Actor;
  let bob: Actor;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    alice = await addMember(server.ds, fx.org, null, 'alice');
    bob = await addMember(server.ds, fx.org, 'read', 'bob');
  });

  it('invites users and teams to a space at once, lists them, and updates each through PATCH', async () => {
    const space = await insertSpace(server.ds, fx.org);
    const team = await newTeam(fx, 'Writers', [alice.user.id]);
    const api = client(fx.admin);

    const invited = await api.spaces.inviteToSpace(space.id, {
      role: MemberRole.Edit,
      users: [alice.user.id, bob.user.id],
      teams: [team],
    });
    expect(invited.status).toBe(204);

    const users = (await api.spaces.listUserPermissionsInSpace(space.id)).data;
    expect(users.count).toBe(2);
    expect(users.items.map((i) => [i.user.id, i.permission]).sort()).toEqual(
      [
        [alice.user.id, 'edit'],
        [bob.user.id, 'edit'],
      ].sort(),
    );
    expect(users.items[0].user).toMatchObject({ object: 'user', urls: { location: expect.any(String) } });
    const teams = (await api.spaces.listTeamPermissionsInSpace(space.id)).data;
    expect(teams.items).toEqual([
      { permission: 'edit', team: expect.objectContaining({ object: 'team', id: team, title: 'Writers', members: 1 }) },
    ]);

    // the guest now reaches the space with the role given
    const seen = await server.as(alice.token).get(`/v1/spaces/${space.id}`).expect(200);
    expect(seen.body.permissions).toMatchObject({ edit: true, review: false });

    await api.spaces.updateUserPermissionInSpace(space.id, alice.user.id, { role: MemberRole.Review });
    await api.spaces.updateTeamPermissionInSpace(space.id, team, { role: MemberRole.Comment });
    expect(await grantsOn(space.id)).toEqual(
      [
        ['user', alice.user.id, 'review'],
        ['user', bob.user.id, 'edit'],
        ['team', team, 'comment'],
      ].sort((a, b) => (a[1] < b[1] ? -1 : 1)),
    );

    // a PATCH without a role changes nothing; role null takes back the role given there, as DELETE does
    await server
      .as(fx.admin.token)
      .patch(`/v1/spaces/${space.id}/permissions/users/${bob.user.id}`)
      .send({})
      .expect(204);
    await api.spaces.updateUserPermissionInSpace(space.id, alice.user.id, { role: null });
    expect(await grantsOn(space.id)).toEqual(
      [
        ['user', bob.user.id, 'edit'],
        ['team', team, 'comment'],
      ].sort((a, b) => (a[1] < b[1] ? -1 : 1)),
    );
    // alice still reaches the space through her team's role
    const viaTeam = await server.as(alice.token).get(`/v1/spaces/${space.id}`).expect(200);
    expect(viaTeam.body.permissions).toMatchObject({ comment: true, edit: false });
  });

  it('gives a user a role with PATCH where none was given, as our PUT does', async () => {
    const space = await insertSpace(server.ds, fx.org);
    const collection = await insertCollection(server.ds, fx.org);
    await client(fx.admin).spaces.updateUserPermissionInSpace(space.id, alice.user.id, { role: MemberRole.Read });
    await server
      .as(fx.admin.token)
      .put(`/v1/collections/${collection.id}/permissions/users/${alice.user.id}`)
      .send({ role: 'comment' })
      .expect(204);
    expect(await grantsOn(space.id)).toEqual([['user', alice.user.id, 'read']]);
    const listed = (await client(fx.admin).collections.listUserPermissionsInCollection(collection.id)).data;
    expect(listed.items.map((i) => [i.user.id, i.permission])).toEqual([[alice.user.id, 'comment']]);
  });

  it('invites to a collection and lists its users and teams, page by page', async () => {
    const collection = await insertCollection(server.ds, fx.org);
    const teams = [await newTeam(fx, 'One'), await newTeam(fx, 'Two'), await newTeam(fx, 'Three')];
    const api = client(fx.admin);
    await api.collections.inviteToCollection(collection.id, { role: MemberRole.Create, teams });
    await api.collections.inviteToCollection(collection.id, { role: MemberRole.Read, users: [bob.user.id] });
    await api.collections.updateTeamPermissionInCollection(collection.id, teams[1], { role: MemberRole.Admin });
    await api.collections.updateUserPermissionInCollection(collection.id, bob.user.id, { role: MemberRole.Edit });

    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = (await api.collections.listTeamPermissionsInCollection(collection.id, { limit: 2, page })).data;
      expect(res.count).toBe(3);
      seen.push(...res.items.map((i) => `${i.team.id}:${i.permission}`));
      page = res.next?.page;
    } while (page);
    expect(seen.sort()).toEqual([`${teams[0]}:create`, `${teams[1]}:admin`, `${teams[2]}:create`].sort());
    const users = (await api.collections.listUserPermissionsInCollection(collection.id)).data;
    expect(users).toEqual({
      items: [{ permission: 'edit', user: expect.objectContaining({ id: bob.user.id }) }],
      count: 1,
    });
  });

  it('answers 404 for a user or team the caller cannot see, and gives nobody anything', async () => {
    const space = await insertSpace(server.ds, fx.org);
    const collection = await insertCollection(server.ds, fx.org);
    const other = await createOrg(server.ds);
    const foreignTeam = (
      await server.as(other.admin.token).put(`/v1/orgs/${other.org.id}/teams`).send({ title: 'Theirs' }).expect(201)
    ).body.id;
    const ours = await newTeam(fx, 'Ours');
    const cases: Array<[string, object, string]> = [
      [
        `/v1/spaces/${space.id}/permissions`,
        { role: 'read', users: [bob.user.id, other.admin.user.id] },
        'user not found',
      ],
      [
        `/v1/spaces/${space.id}/permissions`,
        { role: 'read', users: [bob.user.id], teams: [foreignTeam] },
        'team not found',
      ],
      [`/v1/collections/${collection.id}/permissions`, { role: 'read', teams: [ours, 'nosuchteam'] }, 'team not found'],
    ];
    for (const [path, body, message] of cases) {
      const res = await server.as(fx.admin.token).post(path).send(body).expect(404);
      expect(res.body.error).toEqual({ code: 404, message });
    }
    for (const [method, path] of [
      ['patch', `/v1/spaces/${space.id}/permissions/users/${other.admin.user.id}`],
      ['put', `/v1/spaces/${space.id}/permissions/users/${other.admin.user.id}`],
      ['patch', `/v1/collections/${collection.id}/permissions/teams/${foreignTeam}`],
      ['put', `/v1/collections/${collection.id}/permissions/teams/${foreignTeam}`],
    ] as const)
      await server.as(fx.admin.token)[method](path).send({ role: 'read' }).expect(404);
    // through GitBook's client too
    await expect(
      client(fx.admin).spaces.inviteToSpace(space.id, { role: MemberRole.Read, users: ['nosuchuser'] }),
    ).rejects.toMatchObject({ code: 404 });

    // a guest who administers the space sees only their own teams
    await server
      .as(fx.admin.token)
      .put(`/v1/spaces/${space.id}/permissions/users/${alice.user.id}`)
      .send({ role: 'admin' })
      .expect(204);
    await server
      .as(alice.token)
      .post(`/v1/spaces/${space.id}/permissions`)
      .send({ role: 'read', teams: [ours] })
      .expect(404);
    await server
      .as(alice.token)
      .post(`/v1/spaces/${space.id}/permissions`)
      .send({ role: 'read', users: [bob.user.id] })
      .expect(204);
    expect(await grantsOn(space.id)).toEqual(
      [
        ['user', alice.user.id, 'admin'],
        ['user', bob.user.id, 'read'],
      ].sort((a, b) => (a[1] < b[1] ? -1 : 1)),
    );
    expect(await grantsOn(collection.id)).toEqual([]);
  });

  it('refuses bad input naming the field and the rule', async () => {
    const space = await insertSpace(server.ds, fx.org);
    const invite = `/v1/spaces/${space.id}/permissions`;
    const many = Array.from({ length: 1001 }, (_, i) => `u${i}`);
    const cases: Array<[string, 'post' | 'patch', object, string]> = [
      [invite, 'post', { role: 'read' }, 'request body: must contain users or teams'],
      [invite, 'post', { users: [bob.user.id] }, 'role: is required'],
      [
        invite,
        'post',
        { role: 'owner', users: [bob.user.id] },
        'role: must be one of read, comment, edit, review, create, admin',
      ],
      [invite, 'post', { role: 'read', users: [] }, 'users: must have at least 1 items'],
      [invite, 'post', { role: 'read', users: many }, 'users: must have at most 1000 items'],
      [invite, 'post', { role: 'read', teams: ['not an id'] }, 'teams.0: must be an id (letters, digits, "-" and "_")'],
      [
        invite,
        'post',
        { role: 'read', users: [bob.user.id], emails: ['a@b.c'] },
        'emails: unknown field; accepted: role, users, teams',
      ],
      [
        `${invite}/users/${bob.user.id}`,
        'patch',
        { role: 'owner' },
        'role: must be one of read, comment, edit, review, create, admin',
      ],
      [`${invite}/teams/x`, 'patch', { role: 'read', title: 'x' }, 'title: unknown field; accepted: role'],
    ];
    for (const [path, method, body, message] of cases) {
      const res = await server.as(fx.admin.token)[method](path).send(body).expect(400);
      expect({ path, body, error: res.body.error.message }).toEqual({ path, body, error: message });
    }
    await server.as(fx.admin.token).get(`${invite}/users`).query({ limit: 1001 }).expect(400);
    await server.as(fx.admin.token).get(`${invite}/teams`).query({ page: 'forged' }).expect(400);
    expect(await grantsOn(space.id)).toEqual([]);
  });

  it('answers 401 without a token, 404 to other organizations and to those who cannot see the content, 403 to non-admins', async () => {
    const space = await insertSpace(server.ds, fx.org);
    const collection = await insertCollection(server.ds, fx.org);
    const team = await newTeam(fx, 'T');
    const outsider = await createOrg(server.ds);
    const requests: Array<['get' | 'post' | 'patch', string, object | undefined]> = [];
    for (const base of [`/v1/spaces/${space.id}`, `/v1/collections/${collection.id}`])
      requests.push(
        ['get', `${base}/permissions/users`, undefined],
        ['get', `${base}/permissions/teams`, undefined],
        ['post', `${base}/permissions`, { role: 'read', users: [bob.user.id] }],
        ['patch', `${base}/permissions/users/${bob.user.id}`, { role: 'read' }],
        ['patch', `${base}/permissions/teams/${team}`, { role: 'read' }],
      );
    const send = (token: string | null, [method, path, body]: (typeof requests)[number]) => {
      const req = token ? server.as(token)[method](path) : request(server.app)[method](path);
      return body ? req.send(body) : req;
    };
    for (const r of requests) {
      await send(null, r).expect(401);
      await send(outsider.admin.token, r).expect(404);
      await send(alice.token, r).expect(404); // a guest with no role there
      await send(bob.token, r).expect(403); // a reader
    }
    const editor = await addMember(server.ds, fx.org, 'create');
    await send(editor.token, requests[0]).expect(403);
    await server.as(fx.admin.token).get(`/v1/spaces/nosuchspace/permissions/users`).expect(404);
    const deleted = await insertSpace(server.ds, fx.org, { deleted: true });
    await server.as(fx.admin.token).get(`/v1/spaces/${deleted.id}/permissions/teams`).expect(404);
    await expect(client(bob).spaces.listUserPermissionsInSpace(space.id)).rejects.toBeInstanceOf(GitBookAPIError);
    expect(await grantsOn(space.id)).toEqual([]);
    expect(await grantsOn(collection.id)).toEqual([]);
  });
});
