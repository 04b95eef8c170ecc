/**
 * DELETE of a space or collection the caller cannot see answers 204 and changes nothing, whether the id
 * does not exist or belongs to another organization, so the answer never tells the two apart.
 */
import request from 'supertest';
import { Collection } from '../../entities/Collection';
import { Space } from '../../entities/Space';
import { addMember, createOrg, OrgFixture } from '../factories';
import { newCollection, newSpace } from '../support/api';
import { useServer } from '../support/server';

const server = useServer();

describe('DELETE of an unknown space or collection', () => {
  let fx: OrgFixture;
  let outsider: OrgFixture;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    outsider = await createOrg(server.ds);
  });

  it.each([
    ['space', '/v1/spaces'],
    ['collection', '/v1/collections'],
  ])('%s: 204 alike for an unknown id and for another organization, which changes nothing', async (kind, base) => {
    const theirs =
      kind === 'space'
        ? await newSpace(server, outsider.admin, outsider.org.id)
        : await newCollection(server, outsider.admin, outsider.org.id);
    const unknown = await server
      .as(fx.admin.token)
      .delete(`${base}/${theirs.id.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'))}`);
    const foreign = await server.as(fx.admin.token).delete(`${base}/${theirs.id}`);
    for (const res of [unknown, foreign]) {
      expect({ status: res.status, body: res.body, text: res.text }).toEqual({ status: 204, body: {}, text: '' });
    }
    if (kind === 'space')
      expect((await server.ds.manager.findOneByOrFail(Space, { id: theirs.id })).deletedAt).toBeNull();
    else expect(await server.ds.manager.existsBy(Collection, { id: theirs.id })).toBe(true);
    await server.as(outsider.admin.token).get(`${base}/${theirs.id}`).expect(200);
  });

  it.each([
    ['space', '/v1/spaces'],
    ['collection', '/v1/collections'],
  ])(
    '%s: without a valid token 401; a member who sees it without admin 403; a guest who does not see it 204',
    async (kind, base) => {
      const mine =
        kind === 'space'
          ? await newSpace(server, fx.admin, fx.org.id)
          : await newCollection(server, fx.admin, fx.org.id);
      for (const id of [mine.id, 'no-such-id']) {
        await request(server.app).delete(`${base}/${id}`).expect(401);
        await server.as('dpt_not-a-token').delete(`${base}/${id}`).expect(401);
      }
      const reader = await addMember(server.ds, fx.org, 'read');
      await server.as(reader.token).delete(`${base}/${mine.id}`).expect(403);
      const guest = await addMember(server.ds, fx.org, null);
      await server.as(guest.token).delete(`${base}/${mine.id}`).expect(204);
      await server.as(fx.admin.token).get(`${base}/${mine.id}`).expect(200);
      await server.as(fx.admin.token).delete(`${base}/${mine.id}`).expect(204);
      await server.as(fx.admin.token).get(`${base}/${mine.id}`).expect(404);
      await server.as(fx.admin.token).delete(`${base}/${mine.id}`).expect(204);
    },
  );
});
