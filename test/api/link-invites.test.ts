/**
 * Invite links: made to the organization with a role, or to a space or a collection with a level, by those who may
 * manage invites there; read, listed, changed and deleted by them alone; joined with by anyone holding one, never
 * lowering what they hold. A disabled, expired or unknown link, or one whose creator may no longer grant it, is the
 * same 404.
 */
import { LinkInvite } from '../../entities/LinkInvite';
import { Member } from '../../entities/Member';
import { addMember, createOrg, createUser, type OrgFixture } from '../factories';
import { useServer } from '../support/server';

const server = useServer();

const links = (fx: OrgFixture) => `/v1/orgs/${fx.org.id}/link-invites`;
const join = (fx: OrgFixture, id: string) => `/v1/orgs/${fx.org.id}/invites/${id}`;

async function makeLink(fx: OrgFixture, body: object, token = fx.admin.token) {
  return (await server.as(token).post(links(fx)).send(body).expect(201)).body;
}

async function roleOf(fx: OrgFixture, userId: string) {
  return (await server.ds.manager.findOneBy(Member, { organizationId: fx.org.id, userId }))?.role;
}

async function newSpace(fx: OrgFixture, title = 'Docs') {
  return (await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/spaces`).send({ title }).expect(201)).body;
}

describe('invite links to the organization', () => {
  it('are made, read, listed and changed by admins, with an id as unguessable as any other', async () => {
    const fx = await createOrg(server.ds);
    const made = await server.as(fx.admin.token).post(links(fx)).send({ role: 'edit' }).expect(201);
    expect(made.body).toEqual({
      object: 'invite',
      id: expect.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{20}$/),
      role: 'edit',
      redundant: true,
      expiresAt: null,
      disabled: false,
    });
    expect(made.headers.location).toMatch(new RegExp(`/v1/orgs/${fx.org.id}/link-invites/${made.body.id}$`));
    const guests = await makeLink(fx, { role: null });
    const got = await server
      .as(fx.admin.token)
      .get(`${links(fx)}/${made.body.id}`)
      .expect(200);
    expect(got.body).toEqual(made.body);

    const list = await server.as(fx.admin.token).get(links(fx)).expect(200);
    expect(list.body).toEqual({ items: [guests, made.body], count: 2 });
    const page = await server.as(fx.admin.token).get(links(fx)).query({ limit: 1 }).expect(200);
    const second = await server.as(fx.admin.token).get(links(fx)).query({ page: page.body.next.page }).expect(200);
    expect([...page.body.items, ...second.body.items].map((i: { id: string }) => i.id)).toEqual([
      guests.id,
      made.body.id,
    ]);

    const until = new Date(Date.now() + 3600_000).toISOString();
    const patched = await server
      .as(fx.admin.token)
      .patch(`${links(fx)}/${made.body.id}`)
      .send({ role: 'read', expiresAt: until, disabled: true })
      .expect(200);
    expect(patched.body).toMatchObject({ role: 'read', expiresAt: until, disabled: true });
    await server
      .as(fx.admin.token)
      .delete(`${links(fx)}/${made.body.id}`)
      .expect(204);
    await server
      .as(fx.admin.token)
      .get(`${links(fx)}/${made.body.id}`)
      .expect(404);
  });

  it('let a newcomer join with its role, and never lower what a member holds', async () => {
    const fx = await createOrg(server.ds);
    const link = await makeLink(fx, { role: 'edit' });
    const newcomer = await createUser(server.ds);
    const joined = await server.as(newcomer.token).post(join(fx, link.id)).expect(200);
    expect(joined.body).toEqual({});
    expect(await roleOf(fx, newcomer.user.id)).toBe('edit');
    // again: nothing changes
    await server.as(newcomer.token).post(join(fx, link.id)).expect(200);
    expect(await roleOf(fx, newcomer.user.id)).toBe('edit');
    const view = await server.as(newcomer.token).get(`/v1/orgs/${fx.org.id}`).expect(200);
    expect(view.body.id).toBe(fx.org.id);

    const creator = await addMember(server.ds, fx.org, 'create');
    await server.as(creator.token).post(join(fx, link.id)).expect(200);
    expect(await roleOf(fx, creator.user.id)).toBe('create');
    const guest = await addMember(server.ds, fx.org, null);
    await server.as(guest.token).post(join(fx, link.id)).expect(200);
    expect(await roleOf(fx, guest.user.id)).toBe('edit');
  });

  it('answer the same 404 when disabled, expired, unknown, turned off, or when their creator left', async () => {
    const fx = await createOrg(server.ds);
    const person = await createUser(server.ds);
    const refusals: string[] = [];
    const refused = async (id: string) => {
      const answer = await server.as(person.token).post(join(fx, id)).expect(404);
      refusals.push(JSON.stringify(answer.body));
    };
    const disabled = await makeLink(fx, { role: 'read', disabled: true });
    await refused(disabled.id);
    const expiring = await makeLink(fx, { role: 'read' });
    await server.ds.manager.update(LinkInvite, { id: expiring.id }, { expiresAt: new Date(Date.now() - 1000) });
    await refused(expiring.id);
    await refused('Aunknownunknownunknown');
    const other = await createOrg(server.ds);
    await refused((await makeLink(other, { role: 'read' })).id);

    const admin = await addMember(server.ds, fx.org, 'admin');
    const theirs = await makeLink(fx, { role: 'read' }, admin.token);
    await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}/members/${admin.user.id}`).send({ role: 'edit' });
    await refused(theirs.id);

    const open = await makeLink(fx, { role: 'read' });
    await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send({ inviteLinks: false }).expect(200);
    await refused(open.id);
    expect(new Set(refusals).size).toBe(1);
    expect(await roleOf(fx, person.user.id)).toBeUndefined();
    await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send({ inviteLinks: true }).expect(200);
    await server.as(person.token).post(join(fx, open.id)).expect(200);
    expect(await roleOf(fx, person.user.id)).toBe('read');
  });

  it('leave a disabled member disabled', async () => {
    const fx = await createOrg(server.ds);
    const link = await makeLink(fx, { role: 'admin' });
    const member = await addMember(server.ds, fx.org, 'read');
    await server.ds.manager.update(Member, { organizationId: fx.org.id, userId: member.user.id }, { disabled: true });
    await server.as(member.token).post(join(fx, link.id)).expect(403);
    const row = await server.ds.manager.findOneByOrFail(Member, { organizationId: fx.org.id, userId: member.user.id });
    expect(row).toMatchObject({ role: 'read', disabled: true });
  });
});

describe('invite links to content', () => {
  it('let a newcomer join as a guest with the level on that space and nothing else', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(fx);
    const hidden = await newSpace(fx, 'Hidden');
    const link = await makeLink(fx, { level: 'comment', space: space.id });
    expect(link).toMatchObject({ object: 'invite', level: 'comment', redundant: true, space: { id: space.id } });
    expect(link.role).toBeUndefined();
    const person = await createUser(server.ds);
    await server.as(person.token).post(join(fx, link.id)).expect(200);
    expect(await roleOf(fx, person.user.id)).toBeNull();
    const seen = await server.as(person.token).get(`/v1/spaces/${space.id}`).expect(200);
    expect(seen.body.permissions).toMatchObject({ comment: true, edit: false, admin: false });
    await server.as(person.token).get(`/v1/spaces/${hidden.id}`).expect(404);
    // a level that grows later is not lowered by joining again with a smaller one
    await server
      .as(fx.admin.token)
      .patch(`/v1/spaces/${space.id}/permissions/users/${person.user.id}`)
      .send({ role: 'edit' })
      .expect(204);
    await server.as(person.token).post(join(fx, link.id)).expect(200);
    expect((await server.as(person.token).get(`/v1/spaces/${space.id}`).expect(200)).body.permissions.edit).toBe(true);
  });

  it('are made by the content admins, who cannot make a link to the organization', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(fx);
    const spaceAdmin = await addMember(server.ds, fx.org, 'read');
    await server
      .as(fx.admin.token)
      .patch(`/v1/spaces/${space.id}/permissions/users/${spaceAdmin.user.id}`)
      .send({ role: 'admin' })
      .expect(204);
    const link = await makeLink(fx, { level: 'admin', space: space.id }, spaceAdmin.token);
    await server
      .as(spaceAdmin.token)
      .get(`${links(fx)}/${link.id}`)
      .expect(200);
    await server
      .as(spaceAdmin.token)
      .patch(`${links(fx)}/${link.id}`)
      .send({ level: 'edit' })
      .expect(200);
    await server.as(spaceAdmin.token).post(links(fx)).send({ role: 'read' }).expect(403);
    await server.as(spaceAdmin.token).get(links(fx)).expect(403);
    const editor = await addMember(server.ds, fx.org, 'edit');
    await server.as(editor.token).post(links(fx)).send({ level: 'read', space: space.id }).expect(403);
    await server
      .as(editor.token)
      .get(`${links(fx)}/${link.id}`)
      .expect(403);
    // once the creator no longer administers the space, the link lets nobody in
    await server
      .as(fx.admin.token)
      .delete(`/v1/spaces/${space.id}/permissions/users/${spaceAdmin.user.id}`)
      .expect(204);
    const person = await createUser(server.ds);
    await server.as(person.token).post(join(fx, link.id)).expect(404);
    await server
      .as(fx.admin.token)
      .delete(`${links(fx)}/${link.id}`)
      .expect(204);
  });

  it('answer 404 once their space is deleted', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(fx);
    const link = await makeLink(fx, { level: 'read', space: space.id });
    await server.as(fx.admin.token).delete(`/v1/spaces/${space.id}`).expect(204);
    await server
      .as(fx.admin.token)
      .get(`${links(fx)}/${link.id}`)
      .expect(404);
    await server
      .as((await createUser(server.ds)).token)
      .post(join(fx, link.id))
      .expect(404);
  });
});

describe('invite link requests', () => {
  it('refuse bad input, naming the field, and write nothing', async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(fx);
    const post = (body: object) => server.as(fx.admin.token).post(links(fx)).send(body).expect(400);
    const message = async (body: object) => (await post(body)).body.error.message as string;
    expect(await message({})).toMatch(/^role/);
    expect(await message({ role: 'owner' })).toMatch(/^role/);
    expect(await message({ level: 'read' })).toMatch(/^space/);
    expect(await message({ role: 'read', space: space.id })).toMatch(/^role/);
    expect(await message({ space: space.id })).toMatch(/^level/);
    expect(await message({ level: null, space: space.id })).toMatch(/^level/);
    expect(await message({ level: 'read', space: space.id, collection: space.id })).toMatch(/^collection/);
    expect(await message({ role: 'read', expiresAt: new Date(Date.now() - 1000).toISOString() })).toMatch(/^expiresAt/);
    expect(await message({ role: 'read', url: 'x' })).toMatch(/^url/);
    expect(await server.ds.manager.countBy(LinkInvite, { organizationId: fx.org.id })).toBe(0);
    await server.as(fx.admin.token).post(links(fx)).send({ level: 'read', space: 'Anotherspaceidxxxxxxx' }).expect(404);

    const link = await makeLink(fx, { role: 'read' });
    const patch = (body: object) =>
      server
        .as(fx.admin.token)
        .patch(`${links(fx)}/${link.id}`)
        .send(body)
        .expect(400);
    expect((await patch({})).body.error.message).toMatch(/^role/);
    expect((await patch({ level: 'edit' })).body.error.message).toMatch(/^level/);
    expect((await patch({ disabled: 'yes' })).body.error.message).toMatch(/^disabled/);
    const spaceLink = await makeLink(fx, { level: 'read', space: space.id });
    const wrong = await server
      .as(fx.admin.token)
      .patch(`${links(fx)}/${spaceLink.id}`)
      .send({ role: 'edit' })
      .expect(400);
    expect(wrong.body.error.message).toMatch(/^role/);
  });

  it('answer 401 without a token, 404 for another organization, 403 below admin', async () => {
    const fx = await createOrg(server.ds);
    const other = await createOrg(server.ds);
    const reader = await addMember(server.ds, fx.org, 'read');
    const link = await makeLink(fx, { role: 'read' });
    const item = `${links(fx)}/${link.id}`;
    await server.as('').get(links(fx)).expect(401);
    await server.as('').post(links(fx)).send({ role: 'read' }).expect(401);
    await server.as('').get(item).expect(401);
    await server.as('').patch(item).send({ role: 'edit' }).expect(401);
    await server.as('').post(join(fx, link.id)).expect(401);
    for (const token of [other.admin.token, reader.token]) {
      const expected = token === reader.token ? 403 : 404;
      await server.as(token).get(links(fx)).expect(expected);
      await server.as(token).post(links(fx)).send({ role: 'read' }).expect(expected);
      await server.as(token).get(item).expect(expected);
      await server.as(token).patch(item).send({ role: 'edit' }).expect(expected);
    }
    // the id of another organization's link names nothing here
    const theirs = await makeLink(other, { role: 'read' });
    await server
      .as(fx.admin.token)
      .get(`${links(fx)}/${theirs.id}`)
      .expect(404);
    await server
      .as(fx.admin.token)
      .patch(`${links(fx)}/${theirs.id}`)
      .send({ role: 'edit' })
      .expect(404);
    await server
      .as(fx.admin.token)
      .delete(`${links(fx)}/${theirs.id}`)
      .expect(204);
    expect(await server.ds.manager.existsBy(LinkInvite, { id: theirs.id })).toBe(true);
  });
});
