/** A user's own profile, through GitBook's client. */
import request from 'supertest';
import { addMember, createOrg } from '../factories';
import { useGitBookClient } from '../support/gitbook-client';
import { useServer } from '../support/server';

const server = useServer();
const client = useGitBookClient(server);

describe('updating a user', () => {
  it("changes the caller's own display name and photo; 403 for someone they see, 404 for someone they do not", async () => {
    const fx = await createOrg(server.ds);
    const me = await addMember(server.ds, fx.org, 'read');
    const updated = (
      await client(me.token).users.updateUserById(me.user.id, {
        displayName: '  Ada Lovelace ',
        photoURL: 'https://example.test/ada.png',
      })
    ).data;
    expect(updated).toMatchObject({
      id: me.user.id,
      displayName: 'Ada Lovelace',
      photoURL: 'https://example.test/ada.png',
    });
    expect((await server.as(me.token).get(`/v1/users/${me.user.id}`).expect(200)).body.displayName).toBe(
      'Ada Lovelace',
    );

    const res = await server.as(me.token).patch(`/v1/users/${fx.admin.user.id}`).send({ displayName: 'X' }).expect(403);
    expect(res.body.error.message).toBe('a user changes only their own profile');
    const stranger = await createOrg(server.ds);
    await server.as(me.token).patch(`/v1/users/${stranger.admin.user.id}`).send({ displayName: 'X' }).expect(404);
    await request(server.app).patch(`/v1/users/${me.user.id}`).send({ displayName: 'X' }).expect(401);
  });

  it('refuses bad input with 400 naming the field and rule', async () => {
    const fx = await createOrg(server.ds);
    for (const [body, field] of [
      [{}, ''],
      [{ displayName: '' }, 'displayName'],
      [{ displayName: 'x'.repeat(65) }, 'displayName'],
      [{ photoURL: 'http://example.test/a.png' }, 'photoURL'],
      [{ email: 'a@b.test' }, ''],
    ] as const) {
      const res = await server.as(fx.admin.token).patch(`/v1/users/${fx.admin.user.id}`).send(body).expect(400);
      if (field) expect(res.body.error.message).toMatch(new RegExp(`^${field}: `));
    }
  });
});
