import request from 'supertest';
import { spaceRole } from '../../domain/access/authorize';
import { AccessContext } from '../../domain/access/context';
import { ContentGrant } from '../../entities/ContentGrant';
import { Actor, addMember, createOrg, OrgFixture } from '../factories';
import { insertCollection, insertSpace } from '../support/content';
import { useServer } from '../support/server';

const server = useServer();

describe('content grants (extension)', () => {
  let fx: OrgFixture;
  let guest: Actor;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    guest = await addMember(server.ds, fx.org, null);
  });

  it('lets a guest read a space once granted, and no longer once revoked', async () => {
    const space = await insertSpace(server.ds, fx.org);
    const grantPath = `/v1/spaces/${space.id}/permissions/users/${guest.user.id}`;
    await server.as(guest.token).get(`/v1/spaces/${space.id}`).expect(404);
    await server.as(fx.admin.token).put(grantPath).send({ role: 'read' }).expect(204);
    const read = await server.as(guest.token).get(`/v1/spaces/${space.id}`).expect(200);
    expect(read.body).toMatchObject({ id: space.id, permissions: { view: true, edit: false, admin: false } });
    // PUT again replaces the role
    await server.as(fx.admin.token).put(grantPath).send({ role: 'edit' }).expect(204);
    const edit = await server.as(guest.token).get(`/v1/spaces/${space.id}`).expect(200);
    expect(edit.body.permissions).toMatchObject({ view: true, edit: true, admin: false });
    expect(await server.ds.manager.countBy(ContentGrant, { targetId: space.id })).toBe(1);
    await server.as(fx.admin.token).delete(grantPath).expect(204);
    await server.as(guest.token).get(`/v1/spaces/${space.id}`).expect(404);
    await server.as(fx.admin.token).delete(grantPath).expect(204);
  });

  it('grants a team a role on a collection, reaching the spaces nested in it', async () => {
    const outer = await insertCollection(server.ds, fx.org);
    const inner = await insertCollection(server.ds, fx.org, { parentId: outer.id });
    const nested = await insertSpace(server.ds, fx.org, { parentId: inner.id });
    const outside = await insertSpace(server.ds, fx.org);
    const team = await server
      .as(fx.admin.token)
      .put(`/v1/orgs/${fx.org.id}/teams`)
      .send({ title: 'Guests', members: [guest.user.id] })
      .expect(201);
    await server
      .as(fx.admin.token)
      .put(`/v1/collections/${outer.id}/permissions/teams/${team.body.id}`)
      .send({ role: 'comment' })
      .expect(204);

    const ctx = new AccessContext(server.ds.manager, guest.user.id);
    expect(await spaceRole(ctx, nested)).toBe('comment');
    expect(await spaceRole(ctx, outside)).toBeNull();
    await server.as(guest.token).get(`/v1/spaces/${nested.id}`).expect(200);
    const counted = await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/teams/${team.body.id}`).expect(200);
    expect(counted.body.spaces).toBe(1);
    const member = await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/members/${guest.user.id}`).expect(200);
    expect(member.body.spaces).toBe(1);

    await server.as(fx.admin.token).delete(`/v1/collections/${outer.id}/permissions/teams/${team.body.id}`).expect(204);
    expect(await spaceRole(new AccessContext(server.ds.manager, guest.user.id), nested)).toBeNull();
  });

  it('grants users on collections and teams on spaces', async () => {
    const collection = await insertCollection(server.ds, fx.org);
    const inside = await insertSpace(server.ds, fx.org, { parentId: collection.id });
    const space = await insertSpace(server.ds, fx.org);
    const team = await server
      .as(fx.admin.token)
      .put(`/v1/orgs/${fx.org.id}/teams`)
      .send({ title: 'T', members: [guest.user.id] })
      .expect(201);
    await server
      .as(fx.admin.token)
      .put(`/v1/collections/${collection.id}/permissions/users/${guest.user.id}`)
      .send({ role: 'admin' })
      .expect(204);
    await server
      .as(fx.admin.token)
      .put(`/v1/spaces/${space.id}/permissions/teams/${team.body.id}`)
      .send({ role: 'review' })
      .expect(204);
    const ctx = new AccessContext(server.ds.manager, guest.user.id);
    expect(await spaceRole(ctx, inside)).toBe('admin');
    expect(await spaceRole(ctx, space)).toBe('review');
    // the collection admin may now manage grants inside it, but not elsewhere
    const other = await addMember(server.ds, fx.org, null);
    await server
      .as(guest.token)
      .put(`/v1/spaces/${inside.id}/permissions/users/${other.user.id}`)
      .send({ role: 'read' })
      .expect(204);
    await server
      .as(guest.token)
      .put(`/v1/spaces/${space.id}/permissions/users/${other.user.id}`)
      .send({ role: 'read' })
      .expect(403);
    await server.as(fx.admin.token).delete(`/v1/spaces/${space.id}/permissions/teams/${team.body.id}`).expect(204);
    await server
      .as(fx.admin.token)
      .delete(`/v1/collections/${collection.id}/permissions/users/${guest.user.id}`)
      .expect(204);
    expect(await server.ds.manager.countBy(ContentGrant, { principalId: guest.user.id })).toBe(0);
  });

  it('validates the role, and answers 404 for a principal of another organization', async () => {
    const space = await insertSpace(server.ds, fx.org);
    const collection = await insertCollection(server.ds, fx.org);
    const other = await createOrg(server.ds);
    const foreignTeam = await server
      .as(other.admin.token)
      .put(`/v1/orgs/${other.org.id}/teams`)
      .send({ title: 'Theirs' })
      .expect(201);
    const userPath = `/v1/spaces/${space.id}/permissions/users/${guest.user.id}`;
    const cases: Array<[string, object, string]> = [
      [userPath, {}, 'role: is required'],
      [userPath, { role: 'owner' }, 'role: must be one of read, comment, edit, review, create, admin'],
      [userPath, { role: 'read', expires: 1 }, 'expires: unknown field; accepted: role'],
    ];
    for (const [path, body, message] of cases) {
      const res = await server.as(fx.admin.token).put(path).send(body).expect(400);
      expect(res.body.error).toEqual({ code: 400, message });
    }
    // a user or team of another organization is one the caller cannot see
    const foreignUser = `/v1/spaces/${space.id}/permissions/users/${other.admin.user.id}`;
    const foreign = await server.as(fx.admin.token).put(foreignUser).send({ role: 'read' }).expect(404);
    expect(foreign.body.error).toEqual({ code: 404, message: 'user not found' });
    await server
      .as(fx.admin.token)
      .put(`/v1/collections/${collection.id}/permissions/teams/${foreignTeam.body.id}`)
      .send({ role: 'read' })
      .expect(404);
    const nullRole = await server.as(fx.admin.token).put(userPath).send({ role: null }).expect(400);
    expect(nullRole.body.error.message).toMatch(/^role: must be /);
    expect(await server.ds.manager.countBy(ContentGrant, { organizationId: fx.org.id })).toBe(0);
  });

  it('401, 404 for other organizations and unknown content, 403 for non-admins of the content', async () => {
    const space = await insertSpace(server.ds, fx.org);
    const collection = await insertCollection(server.ds, fx.org);
    const path = `/v1/spaces/${space.id}/permissions/users/${guest.user.id}`;
    await request(server.app).put(path).send({ role: 'read' }).expect(401);
    const outsider = await createOrg(server.ds);
    await server.as(outsider.admin.token).put(path).send({ role: 'read' }).expect(404);
    await server
      .as(outsider.admin.token)
      .delete(`/v1/collections/${collection.id}/permissions/users/${guest.user.id}`)
      .expect(204);
    await server
      .as(fx.admin.token)
      .put(`/v1/spaces/nope/permissions/users/${guest.user.id}`)
      .send({ role: 'read' })
      .expect(404);
    const deleted = await insertSpace(server.ds, fx.org, { deleted: true });
    await server
      .as(fx.admin.token)
      .put(`/v1/spaces/${deleted.id}/permissions/users/${guest.user.id}`)
      .send({ role: 'read' })
      .expect(404);
    const reader = await addMember(server.ds, fx.org, 'read');
    await server.as(reader.token).put(path).send({ role: 'read' }).expect(403);
    await server.as(reader.token).delete(path).expect(403);
    await server
      .as(reader.token)
      .put(`/v1/collections/${collection.id}/permissions/users/${guest.user.id}`)
      .send({ role: 'read' })
      .expect(403);
    await server.as(guest.token).put(path).send({ role: 'admin' }).expect(404);
  });
});
