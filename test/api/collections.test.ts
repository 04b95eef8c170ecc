import request from 'supertest';
import { addOrUpdateMember } from '../../domain/organizations/membership';
import { Collection } from '../../entities/Collection';
import { ContentGrant } from '../../entities/ContentGrant';
import { Space } from '../../entities/Space';
import { addMember, createOrg, OrgFixture } from '../factories';
import { listAll, newCollection, newSpace } from '../support/api';
import { grant } from '../support/content';
import { useServer } from '../support/server';

const server = useServer();

/** Ids of the items under a parent in display order, spaces and collections alike. */
async function siblingOrder(orgId: string, parentId: string | null): Promise<string[]> {
  const where = parentId === null ? 'parentId IS NULL' : 'parentId = ?';
  const args = parentId === null ? [orgId] : [orgId, parentId];
  const rows: Array<{ id: string }> = await server.ds.query(
    `SELECT id, position FROM (SELECT id, position FROM collections WHERE organizationId = ? AND ${where}
     UNION ALL SELECT id, position FROM spaces WHERE organizationId = ? AND ${where} AND deletedAt IS NULL) x ORDER BY position, id`,
    [...args, ...args],
  );
  return rows.map((r) => r.id);
}

describe('collections', () => {
  let fx: OrgFixture;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
  });

  it('creates a collection at the root with the spec fields, then reads it', async () => {
    const res = await server
      .as(fx.admin.token)
      .post(`/v1/orgs/${fx.org.id}/collections`)
      .send({ title: 'Guides' })
      .expect(201);
    expect(res.headers.location).toBe(`${server.config.publicBaseUrl}/v1/collections/${res.body.id}`);
    expect(res.body).toEqual({
      object: 'collection',
      id: expect.any(String),
      title: 'Guides',
      organization: fx.org.id,
      defaultLevel: null,
      urls: {
        location: `${server.config.publicBaseUrl}/v1/collections/${res.body.id}`,
        app: expect.stringContaining(res.body.id),
      },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    const got = await server.as(fx.admin.token).get(`/v1/collections/${res.body.id}`).expect(200);
    expect(got.body).toEqual(res.body);
    const untitled = await newCollection(server, fx.admin, fx.org.id);
    expect(untitled.title).toBe('Untitled collection');
  });

  it('creates under a parent of the same organization only', async () => {
    const parent = await newCollection(server, fx.admin, fx.org.id, { title: 'Parent' });
    const child = await newCollection(server, fx.admin, fx.org.id, { title: 'Child', parent: parent.id });
    expect(child.parent).toBe(parent.id);
    const other = await createOrg(server.ds);
    const foreign = await newCollection(server, other.admin, other.org.id);
    for (const parentId of [foreign.id, 'nope']) {
      const res = await server
        .as(fx.admin.token)
        .post(`/v1/orgs/${fx.org.id}/collections`)
        .send({ parent: parentId })
        .expect(400);
      expect(res.body.error).toEqual({ code: 400, message: 'parent: no such collection in this organization' });
    }
  });

  it('validates the create and update bodies', async () => {
    const cases: Array<[object, string]> = [
      [{ title: 'x'.repeat(51) }, 'title: must be at most 50 characters'],
      [{ title: 7 }, 'title: must be a string, not number'],
      [{ title: '   ' }, 'title: must be at least 1 character'],
      [{ parent: 12 }, 'parent: must be a string, not number'],
      [{ id: 'mine' }, 'id: unknown field; accepted: title, parent'],
    ];
    for (const [body, message] of cases) {
      const res = await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/collections`).send(body).expect(400);
      expect(res.body.error.message).toBe(message);
    }
    const c = await newCollection(server, fx.admin, fx.org.id);
    const patchCases: Array<[object, string]> = [
      [{ title: 'x'.repeat(51) }, 'title: must be at most 50 characters'],
      [{ description: 'x'.repeat(101) }, 'description: must be at most 100 characters'],
      [{ defaultLevel: 'owner' }, 'defaultLevel: must be one of read, comment, edit, review, create, admin, inherit'],
      [{ permissions: {} }, 'permissions: unknown field; accepted: title, description, defaultLevel'],
    ];
    for (const [body, message] of patchCases) {
      const res = await server.as(fx.admin.token).patch(`/v1/collections/${c.id}`).send(body).expect(400);
      expect(res.body.error.message).toBe(message);
    }
  });

  it('patches title, description and defaultLevel; null clears', async () => {
    const c = await newCollection(server, fx.admin, fx.org.id);
    const res = await server
      .as(fx.admin.token)
      .patch(`/v1/collections/${c.id}`)
      .send({ title: 'API', description: 'Reference', defaultLevel: 'edit' })
      .expect(200);
    expect(res.body).toMatchObject({ title: 'API', description: 'Reference', defaultLevel: 'edit' });
    const cleared = await server
      .as(fx.admin.token)
      .patch(`/v1/collections/${c.id}`)
      .send({ description: null, defaultLevel: null })
      .expect(200);
    expect(cleared.body).not.toHaveProperty('description');
    expect(cleared.body.defaultLevel).toBeNull();
    expect(cleared.body.title).toBe('API');
  });

  it('answers 401 without a token', async () => {
    await request(server.app).get(`/v1/orgs/${fx.org.id}/collections`).expect(401);
    await server.as('garbage').post(`/v1/orgs/${fx.org.id}/collections`).send({}).expect(401);
  });

  it('hides collections from another organization (404) and refuses writes by a read member (403)', async () => {
    const c = await newCollection(server, fx.admin, fx.org.id);
    const outsider = await createOrg(server.ds);
    const o = server.as(outsider.admin.token);
    await o.get(`/v1/orgs/${fx.org.id}/collections`).expect(404);
    await o.post(`/v1/orgs/${fx.org.id}/collections`).send({}).expect(404);
    await o.get(`/v1/collections/${c.id}`).expect(404);
    await o.patch(`/v1/collections/${c.id}`).send({ title: 'x' }).expect(404);
    await o.delete(`/v1/collections/${c.id}`).expect(204); // DELETE: 204 and no change, as for an unknown id
    await o.get(`/v1/collections/${c.id}/spaces`).expect(404);
    await o.post(`/v1/collections/${c.id}/move`).send({ parent: null }).expect(404);
    await o.post(`/v1/collections/${c.id}/transfer`).send({ organization: outsider.org.id }).expect(404);

    const reader = await addMember(server.ds, fx.org, 'read');
    const r = server.as(reader.token);
    const seen = await r.get(`/v1/collections/${c.id}`).expect(200);
    expect(seen.body.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    await r.post(`/v1/orgs/${fx.org.id}/collections`).send({}).expect(403);
    await r.post(`/v1/orgs/${fx.org.id}/collections`).send({ parent: c.id }).expect(403);
    await r.patch(`/v1/collections/${c.id}`).send({ title: 'x' }).expect(403);
    await r.delete(`/v1/collections/${c.id}`).expect(403);
    await r
      .post(`/v1/collections/${c.id}/move`)
      .send({ parent: null, position: { after: { type: 'collection', collection: c.id } } })
      .expect(403);
    await r.post(`/v1/collections/${c.id}/transfer`).send({ organization: fx.org.id }).expect(403);
    // A member with the create role may add collections, but not administer them.
    const creator = await addMember(server.ds, fx.org, 'create');
    await newCollection(server, creator, fx.org.id, { parent: c.id });
    await server.as(creator.token).patch(`/v1/collections/${c.id}`).send({ title: 'x' }).expect(403);
  });

  it('lists collections across pages, nested or top-level only, and refuses forged or foreign cursors', async () => {
    const top: string[] = [];
    for (let i = 0; i < 3; i++) top.push((await newCollection(server, fx.admin, fx.org.id, { title: `Top ${i}` })).id);
    const nestedIds = [
      (await newCollection(server, fx.admin, fx.org.id, { parent: top[0] })).id,
      (await newCollection(server, fx.admin, fx.org.id, { parent: top[1] })).id,
    ];
    const all = await listAll(server, fx.admin, `/v1/orgs/${fx.org.id}/collections`, { limit: 2 });
    expect(all.pages).toBe(3);
    expect(all.counts).toEqual([5, 5, 5]);
    expect(all.ids).toEqual([...top, ...nestedIds]);
    const topOnly = await listAll(server, fx.admin, `/v1/orgs/${fx.org.id}/collections`, { limit: 2, nested: 'false' });
    expect(topOnly.ids).toEqual(top);
    expect(topOnly.counts[0]).toBe(3);

    const first = await server
      .as(fx.admin.token)
      .get(`/v1/orgs/${fx.org.id}/collections`)
      .query({ limit: 1 })
      .expect(200);
    const foreign = await server
      .as(fx.admin.token)
      .get(`/v1/orgs/${fx.org.id}/collections`)
      .query({ nested: 'false', page: first.body.next.page })
      .expect(400);
    expect(foreign.body.error.message).toBe('page: invalid or expired cursor');
    const forged = await server
      .as(fx.admin.token)
      .get(`/v1/orgs/${fx.org.id}/collections`)
      .query({ page: 'eyJ4IjoxfQ.abc' })
      .expect(400);
    expect(forged.body.error.message).toBe('page: invalid or expired cursor');
    const badNested = await server
      .as(fx.admin.token)
      .get(`/v1/orgs/${fx.org.id}/collections`)
      .query({ nested: 'yes' })
      .expect(400);
    expect(badNested.body.error.message).toBe('nested: must be one of true, false');
    const badLimit = await server
      .as(fx.admin.token)
      .get(`/v1/orgs/${fx.org.id}/collections`)
      .query({ limit: 1001 })
      .expect(400);
    expect(badLimit.body.error.message).toBe('limit: must be at most 1000');
  });

  it('shows a guest only the collections granted to them and what lies inside', async () => {
    const granted = await newCollection(server, fx.admin, fx.org.id, { title: 'Granted' });
    const inside = await newCollection(server, fx.admin, fx.org.id, { parent: granted.id });
    const hidden = await newCollection(server, fx.admin, fx.org.id, { title: 'Hidden' });
    const guest = await addMember(server.ds, fx.org, null);
    await grant(server.ds, fx.org.id, 'collection', granted.id, guest.user.id, 'read');
    const listed = await listAll(server, guest, `/v1/orgs/${fx.org.id}/collections`);
    expect(listed.ids).toEqual([granted.id, inside.id]);
    expect(listed.counts).toEqual([2]);
    await server.as(guest.token).get(`/v1/collections/${hidden.id}`).expect(404);
    // A hidden parent is reported as not existing, not as forbidden.
    const res = await server
      .as(guest.token)
      .post(`/v1/orgs/${fx.org.id}/collections`)
      .send({ parent: hidden.id })
      .expect(400);
    expect(res.body.error.message).toBe('parent: no such collection in this organization');
  });

  it('lists the spaces of a collection in their order, across pages', async () => {
    const c = await newCollection(server, fx.admin, fx.org.id);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await newSpace(server, fx.admin, fx.org.id, { title: `S${i}`, parent: c.id })).id);
    await newSpace(server, fx.admin, fx.org.id, { title: 'elsewhere' });
    // Move the last one to the front: the list follows positions, not creation.
    await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${ids[4]}/move`)
      .send({ position: { before: { type: 'space', space: ids[0] } } })
      .expect(200);
    const listed = await listAll(server, fx.admin, `/v1/collections/${c.id}/spaces`, { limit: 2 });
    expect(listed.ids).toEqual([ids[4], ids[0], ids[1], ids[2], ids[3]]);
    expect(listed.counts).toEqual([5, 5, 5]);
    const first = await server.as(fx.admin.token).get(`/v1/collections/${c.id}/spaces`).query({ limit: 1 }).expect(200);
    expect(first.body.items[0]).toMatchObject({ object: 'space', id: ids[4], parent: c.id });
    const forged = await server
      .as(fx.admin.token)
      .get(`/v1/collections/${c.id}/spaces`)
      .query({ page: `${first.body.next.page}x` })
      .expect(400);
    expect(forged.body.error.message).toBe('page: invalid or expired cursor');
  });

  it('deletes an empty collection and refuses one that still holds content (409)', async () => {
    const parent = await newCollection(server, fx.admin, fx.org.id);
    const child = await newCollection(server, fx.admin, fx.org.id, { parent: parent.id });
    const res = await server.as(fx.admin.token).delete(`/v1/collections/${parent.id}`).expect(409);
    expect(res.body.error.message).toBe(
      'the collection is not empty (0 spaces, 1 collections): move or delete them first',
    );
    const space = await newSpace(server, fx.admin, fx.org.id, { parent: child.id });
    await server.as(fx.admin.token).delete(`/v1/collections/${child.id}`).expect(409);
    // A soft-deleted space does not block deletion; it moves up so it can still be restored.
    await server.as(fx.admin.token).delete(`/v1/spaces/${space.id}`).expect(204);
    await server.as(fx.admin.token).delete(`/v1/collections/${child.id}`).expect(204);
    await server.as(fx.admin.token).get(`/v1/collections/${child.id}`).expect(404);
    expect((await server.ds.manager.findOneByOrFail(Space, { id: space.id })).parentId).toBe(parent.id);
    const restored = await server.as(fx.admin.token).post(`/v1/spaces/${space.id}/restore`).expect(200);
    expect(restored.body.parent).toBe(parent.id);
    await server.as(fx.admin.token).delete(`/v1/collections/${parent.id}`).expect(409);
    // Already gone: 204 again.
    await server.as(fx.admin.token).delete(`/v1/collections/${child.id}`).expect(204);
  });

  describe('move', () => {
    it('moves under another parent, to the root, and next to a sibling', async () => {
      const a = await newCollection(server, fx.admin, fx.org.id, { title: 'A' });
      const b = await newCollection(server, fx.admin, fx.org.id, { title: 'B' });
      const s = await newSpace(server, fx.admin, fx.org.id, { title: 'S' });
      expect(await siblingOrder(fx.org.id, null)).toEqual([a.id, b.id, s.id]);
      const moved = await server
        .as(fx.admin.token)
        .post(`/v1/collections/${b.id}/move`)
        .send({ parent: a.id })
        .expect(200);
      expect(moved.body).toMatchObject({ object: 'collection', id: b.id, parent: a.id });
      expect(await siblingOrder(fx.org.id, a.id)).toEqual([b.id]);
      const back = await server
        .as(fx.admin.token)
        .post(`/v1/collections/${b.id}/move`)
        .send({ parent: null, position: { before: { type: 'space', space: s.id } } })
        .expect(200);
      expect(back.body).not.toHaveProperty('parent');
      expect(await siblingOrder(fx.org.id, null)).toEqual([a.id, b.id, s.id]);
      await server
        .as(fx.admin.token)
        .post(`/v1/collections/${b.id}/move`)
        .send({ position: { before: { type: 'collection', collection: a.id } } })
        .expect(200);
      expect(await siblingOrder(fx.org.id, null)).toEqual([b.id, a.id, s.id]);
      await server
        .as(fx.admin.token)
        .post(`/v1/collections/${b.id}/move`)
        .send({ position: { after: { type: 'space', space: s.id } } })
        .expect(200);
      expect(await siblingOrder(fx.org.id, null)).toEqual([a.id, s.id, b.id]);
    });

    it('answers 409 for a move into itself, a descendant, or one that changes nothing', async () => {
      const a = await newCollection(server, fx.admin, fx.org.id);
      const child = await newCollection(server, fx.admin, fx.org.id, { parent: a.id });
      const grandchild = await newCollection(server, fx.admin, fx.org.id, { parent: child.id });
      const b = await newCollection(server, fx.admin, fx.org.id);
      for (const parent of [a.id, grandchild.id]) {
        const res = await server.as(fx.admin.token).post(`/v1/collections/${a.id}/move`).send({ parent }).expect(409);
        expect(res.body.error.message).toBe('a collection cannot be moved into itself or one of its descendants');
      }
      const cases: object[] = [
        { parent: null },
        { position: { before: { type: 'collection', collection: b.id } } },
        { parent: null, position: { before: { type: 'collection', collection: b.id } } },
      ];
      for (const body of cases) {
        const res = await server.as(fx.admin.token).post(`/v1/collections/${a.id}/move`).send(body).expect(409);
        expect(res.body.error.message).toBe('the move would not change anything');
      }
    });

    it('answers 400 for a bad position or parent', async () => {
      const a = await newCollection(server, fx.admin, fx.org.id);
      const b = await newCollection(server, fx.admin, fx.org.id);
      const nested = await newCollection(server, fx.admin, fx.org.id, { parent: b.id });
      const other = await createOrg(server.ds);
      const foreign = await newCollection(server, other.admin, other.org.id);
      const cases: Array<[object, string]> = [
        [{}, 'request body: must contain parent or position'],
        [{ position: {} }, 'position: must have exactly one of before, after'],
        [
          {
            position: {
              before: { type: 'collection', collection: b.id },
              after: { type: 'collection', collection: b.id },
            },
          },
          'position: must have exactly one of before, after',
        ],
        [
          { position: { before: { type: 'page', page: 'x' } } },
          'position.before.type: must be one of space, collection',
        ],
        [{ position: { before: { type: 'space' } } }, 'position.before.space: is required'],
        [{ position: { before: { type: 'space', space: 'x', extra: 1 } } }, 'position.before.extra: unknown field'],
        [
          { position: { after: { type: 'collection', collection: nested.id } } },
          `position: collection "${nested.id}" is not in the target parent`,
        ],
        [
          { position: { after: { type: 'collection', collection: a.id } } },
          'position: an item cannot be placed relative to itself',
        ],
        [{ parent: foreign.id }, 'parent: no such collection in this organization'],
        [{ parent: 5 }, 'parent: must be a string, not number'],
      ];
      for (const [body, message] of cases) {
        const res = await server.as(fx.admin.token).post(`/v1/collections/${a.id}/move`).send(body).expect(400);
        expect(res.body.error.message).toBe(message);
      }
      await server.as(fx.admin.token).post('/v1/collections/nope/move').send({ parent: null }).expect(404);
    });

    it('renumbers siblings when repeated moves exhaust the gap, keeping the order', async () => {
      const first = await newCollection(server, fx.admin, fx.org.id, { title: 'first' });
      const x = await newCollection(server, fx.admin, fx.org.id, { title: 'x' });
      const y = await newCollection(server, fx.admin, fx.org.id, { title: 'y' });
      // Alternately slip x and y right after `first`: each move halves the gap next to it.
      for (let i = 0; i < 40; i++) {
        const mover = i % 2 === 0 ? y : x;
        await server
          .as(fx.admin.token)
          .post(`/v1/collections/${mover.id}/move`)
          .send({ position: { after: { type: 'collection', collection: first.id } } })
          .expect(200);
      }
      expect(await siblingOrder(fx.org.id, null)).toEqual([first.id, x.id, y.id]);
      const rows = await server.ds.manager.findBy(Collection, { organizationId: fx.org.id });
      const positions = rows.map((r) => r.position).sort((p, q) => p - q);
      expect(positions[1] - positions[0]).toBeGreaterThan(1e-6);
    });
  });

  describe('transfer', () => {
    it('moves the collection, its sub-collections and their spaces to the other organization root', async () => {
      const target = await createOrg(server.ds);
      // The caller administers the source and may create content in the target.
      await addOrUpdateMember(server.ds.manager, target.org.id, fx.admin.user.id, 'create');
      const root = await newCollection(server, fx.admin, fx.org.id, { title: 'Root' });
      const c = await newCollection(server, fx.admin, fx.org.id, { title: 'Moving', parent: root.id });
      const sub = await newCollection(server, fx.admin, fx.org.id, { parent: c.id });
      const s1 = await newSpace(server, fx.admin, fx.org.id, { parent: c.id });
      const s2 = await newSpace(server, fx.admin, fx.org.id, { parent: sub.id });
      const reader = await addMember(server.ds, fx.org, 'read');
      await grant(server.ds, fx.org.id, 'collection', sub.id, reader.user.id, 'admin');
      await grant(server.ds, fx.org.id, 'space', s1.id, reader.user.id, 'admin');

      const res = await server
        .as(fx.admin.token)
        .post(`/v1/collections/${c.id}/transfer`)
        .send({ organization: target.org.id })
        .expect(200);
      expect(res.body).toMatchObject({ object: 'collection', id: c.id, organization: target.org.id });
      expect(res.body).not.toHaveProperty('parent');
      expect((await server.as(target.admin.token).get(`/v1/collections/${sub.id}`).expect(200)).body).toMatchObject({
        organization: target.org.id,
        parent: c.id,
      });
      for (const s of [s1, s2])
        expect((await server.as(target.admin.token).get(`/v1/spaces/${s.id}`).expect(200)).body.organization).toBe(
          target.org.id,
        );
      await server.as(reader.token).get(`/v1/collections/${sub.id}`).expect(404);
      expect(await server.ds.manager.countBy(ContentGrant, { principalId: reader.user.id })).toBe(0);
      const left = await listAll(server, fx.admin, `/v1/orgs/${fx.org.id}/collections`);
      expect(left.ids).toEqual([root.id]);
    });

    it('answers 409 within the same organization, 404 for an unseen target and 403 without createContent there', async () => {
      const c = await newCollection(server, fx.admin, fx.org.id);
      const same = await server
        .as(fx.admin.token)
        .post(`/v1/collections/${c.id}/transfer`)
        .send({ organization: fx.org.id })
        .expect(409);
      expect(same.body.error.message).toBe('the transfer would not change anything');
      const unseen = await createOrg(server.ds);
      const res = await server
        .as(fx.admin.token)
        .post(`/v1/collections/${c.id}/transfer`)
        .send({ organization: unseen.org.id })
        .expect(404);
      expect(res.body.error.message).toBe('organization not found');
      await server
        .as(fx.admin.token)
        .post(`/v1/collections/${c.id}/transfer`)
        .send({ organization: 'nope' })
        .expect(404);
      const readOnly = await createOrg(server.ds);
      await addOrUpdateMember(server.ds.manager, readOnly.org.id, fx.admin.user.id, 'read');
      await server
        .as(fx.admin.token)
        .post(`/v1/collections/${c.id}/transfer`)
        .send({ organization: readOnly.org.id })
        .expect(403);
      const missing = await server.as(fx.admin.token).post(`/v1/collections/${c.id}/transfer`).send({}).expect(400);
      expect(missing.body.error.message).toBe('organization: is required');
      expect((await server.as(fx.admin.token).get(`/v1/collections/${c.id}`).expect(200)).body.organization).toBe(
        fx.org.id,
      );
    });
  });
});
