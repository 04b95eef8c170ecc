import request from 'supertest';
import { addOrUpdateMember } from '../../domain/organizations/membership';
import { LANGUAGES } from '../../domain/spaces/languages';
import { ContentGrant } from '../../entities/ContentGrant';
import { Space } from '../../entities/Space';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, listAll, newCollection, newSpace } from '../support/api';
import { grant } from '../support/content';
import { startServer, useServer } from '../support/server';

const server = useServer();

const ids = (items: Json[]): string[] => items.map((i) => i.id);

const ALL_SPACE_PERMISSIONS = [
  'view',
  'access',
  'admin',
  'viewInviteLinks',
  'edit',
  'triggerGitSync',
  'comment',
  'merge',
  'review',
  'installIntegration',
];

describe('spaces', () => {
  let fx: OrgFixture;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
  });

  it('creates a space (extension) with defaults and the spec fields, then reads it', async () => {
    const res = await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/spaces`).send({}).expect(201);
    const id = res.body.id;
    expect(res.headers.location).toBe(`${server.config.publicBaseUrl}/v1/spaces/${id}`);
    expect(res.body).toEqual({
      object: 'space',
      id: expect.any(String),
      title: 'Untitled',
      emoji: '',
      visibility: 'private',
      revision: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      editMode: 'live',
      urls: {
        location: `${server.config.publicBaseUrl}/v1/spaces/${id}`,
        app: expect.stringContaining(id),
        published: expect.stringContaining(id),
        public: expect.stringContaining(id),
      },
      organization: fx.org.id,
      language: 'en',
      defaultLevel: null,
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      mergeRules: { type: 'inherit' },
      permissions: Object.fromEntries(ALL_SPACE_PERMISSIONS.map((p) => [p, true])),
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    const got = await server.as(fx.admin.token).get(`/v1/spaces/${id}`).expect(200);
    // a share key resolves the space's URL in the share-link site it opens; this one opens none
    await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${id}`)
      .query({ shareKey: 'k'.repeat(256) })
      .expect(404);
    expect(got.body).toEqual(res.body);

    const c = await newCollection(server, fx.admin, fx.org.id);
    const full = await newSpace(server, fx.admin, fx.org.id, {
      title: 'Handbook',
      emoji: '📘',
      parent: c.id,
      language: 'pt-br',
      editMode: 'locked',
    });
    expect(full).toMatchObject({ title: 'Handbook', emoji: '📘', parent: c.id, language: 'pt-br', editMode: 'locked' });
  });

  it('validates create, get and patch input', async () => {
    const createCases: Array<[object, string]> = [
      [{ title: '' }, 'title: must be at least 1 character'],
      [{ title: 'x'.repeat(51) }, 'title: must be at most 50 characters'],
      [{ title: 1 }, 'title: must be a string, not number'],
      [{ emoji: 'x'.repeat(51) }, 'emoji: must be at most 50 characters'],
      [
        { emoji: 'not-an-emoji' },
        'emoji: must be one emoji, as its character(s) (🚀) or its code points in hexadecimal joined by - (1f680)',
      ],
      [{ language: 'xx' }, `language: must be one of ${LANGUAGES.join(', ')}`],
      [{ editMode: 'frozen' }, 'editMode: must be one of live, locked'],
      [{ visibility: 'public' }, 'visibility: unknown field; accepted: title, emoji, parent, language, editMode'],
      [{ parent: 'nope' }, 'parent: no such collection in this organization'],
    ];
    for (const [body, message] of createCases) {
      const res = await server.as(fx.admin.token).post(`/v1/orgs/${fx.org.id}/spaces`).send(body).expect(400);
      expect(res.body.error).toEqual({ code: 400, message });
    }
    const s = await newSpace(server, fx.admin, fx.org.id);
    const tooLong = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${s.id}`)
      .query({ shareKey: 'k'.repeat(257) })
      .expect(400);
    expect(tooLong.body.error.message).toBe('shareKey: must be at most 256 characters');
    const patchCases: Array<[object, string]> = [
      [{ title: 'x'.repeat(51) }, 'title: must be at most 50 characters'],
      [{ defaultLevel: 'owner' }, 'defaultLevel: must be one of read, comment, edit, review, create, admin, inherit'],
      [{ editMode: 'frozen' }, 'editMode: must be one of live, locked'],
      [{ emoji: 'x'.repeat(51) }, 'emoji: must be at most 50 characters'],
      [
        { emoji: 'not-an-emoji' },
        'emoji: must be one emoji, as its character(s) (🚀) or its code points in hexadecimal joined by - (1f680)',
      ],
      [
        { comments: 3 },
        'comments: unknown field; accepted: editMode, title, defaultLevel, language, emoji, visibility, mergeRules',
      ],
      [
        { id: 'other' },
        'id: unknown field; accepted: editMode, title, defaultLevel, language, emoji, visibility, mergeRules',
      ],
    ];
    for (const [body, message] of patchCases) {
      const res = await server.as(fx.admin.token).patch(`/v1/spaces/${s.id}`).send(body).expect(400);
      expect(res.body.error.message).toBe(message);
    }
  });

  it('patches every writable field; null clears emoji and defaultLevel', async () => {
    const s = await newSpace(server, fx.admin, fx.org.id, { emoji: '🙂' });
    const res = await server
      .as(fx.admin.token)
      .patch(`/v1/spaces/${s.id}`)
      .send({ title: 'Renamed', editMode: 'locked', defaultLevel: 'comment', language: 'fr', emoji: '🚀' })
      .expect(200);
    expect(res.body).toMatchObject({
      title: 'Renamed',
      editMode: 'locked',
      defaultLevel: 'comment',
      language: 'fr',
      emoji: '🚀',
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(s.updatedAt));
    const cleared = await server
      .as(fx.admin.token)
      .patch(`/v1/spaces/${s.id}`)
      .send({ emoji: null, defaultLevel: null })
      .expect(200);
    expect(cleared.body.emoji).toBe('');
    expect(cleared.body.defaultLevel).toBeNull();
    expect((await server.as(fx.admin.token).get(`/v1/spaces/${s.id}`).expect(200)).body).toMatchObject({
      title: 'Renamed',
      language: 'fr',
    });
  });

  it('answers 401 without a valid token', async () => {
    await request(server.app).get(`/v1/orgs/${fx.org.id}/spaces`).expect(401);
    await server.as('garbage').post(`/v1/orgs/${fx.org.id}/spaces`).send({}).expect(401);
  });

  it('hides spaces from another organization (404) and refuses writes by a read member (403)', async () => {
    const s = await newSpace(server, fx.admin, fx.org.id);
    const outsider = await createOrg(server.ds);
    const o = server.as(outsider.admin.token);
    await o.get(`/v1/orgs/${fx.org.id}/spaces`).expect(404);
    await o.post(`/v1/orgs/${fx.org.id}/spaces`).send({}).expect(404);
    await o.get(`/v1/spaces/${s.id}`).expect(404);
    await o.patch(`/v1/spaces/${s.id}`).send({ title: 'x' }).expect(404);
    await o.delete(`/v1/spaces/${s.id}`).expect(204); // DELETE: 204 and no change, as for an unknown id
    await o.post(`/v1/spaces/${s.id}/restore`).expect(404);
    await o.post(`/v1/spaces/${s.id}/duplicate`).expect(404);
    await o.post(`/v1/spaces/${s.id}/move`).send({ parent: null }).expect(404);
    await o.post(`/v1/spaces/${s.id}/transfer`).send({ organization: outsider.org.id }).expect(404);
    await o.get(`/v1/orgs/${fx.org.id}/members/${fx.admin.user.id}/spaces`).expect(404);

    const reader = await addMember(server.ds, fx.org, 'read');
    const r = server.as(reader.token);
    const seen = await r.get(`/v1/spaces/${s.id}`).expect(200);
    expect(seen.body.permissions).toEqual({
      ...Object.fromEntries(ALL_SPACE_PERMISSIONS.map((p) => [p, false])),
      view: true,
      access: true,
    });
    await r.post(`/v1/orgs/${fx.org.id}/spaces`).send({}).expect(403);
    await r.patch(`/v1/spaces/${s.id}`).send({ title: 'x' }).expect(403);
    await r.delete(`/v1/spaces/${s.id}`).expect(403);
    await r.post(`/v1/spaces/${s.id}/restore`).expect(403);
    await r.post(`/v1/spaces/${s.id}/duplicate`).expect(403);
    await r.post(`/v1/spaces/${s.id}/move`).send({ parent: null }).expect(403);
    await r.post(`/v1/spaces/${s.id}/transfer`).send({ organization: fx.org.id }).expect(403);
  });

  it('lists the spaces of an organization newest first across pages, only those the caller can view', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await newSpace(server, fx.admin, fx.org.id, { title: `S${i}` })).id);
    const listed = await listAll(server, fx.admin, `/v1/orgs/${fx.org.id}/spaces`, { limit: 2 });
    expect(listed.pages).toBe(3);
    expect(listed.counts).toEqual([5, 5, 5]);
    expect(ids(listed.items)).toEqual([...created].reverse());
    const forged = await server
      .as(fx.admin.token)
      .get(`/v1/orgs/${fx.org.id}/spaces`)
      .query({ page: 'eyJ4IjoxfQ.abc' })
      .expect(400);
    expect(forged.body.error.message).toBe('page: invalid or expired cursor');

    const guest = await addMember(server.ds, fx.org, null);
    const c = await newCollection(server, fx.admin, fx.org.id);
    const inGranted = await newSpace(server, fx.admin, fx.org.id, { parent: c.id });
    await grant(server.ds, fx.org.id, 'collection', c.id, guest.user.id, 'read');
    await grant(server.ds, fx.org.id, 'space', created[1], guest.user.id, 'edit');
    const guestList = await listAll(server, guest, `/v1/orgs/${fx.org.id}/spaces`);
    expect(ids(guestList.items)).toEqual([inGranted.id, created[1]]);
    expect(guestList.counts).toEqual([2]);
    await server.as(guest.token).get(`/v1/spaces/${created[0]}`).expect(404);
  });

  it('delete hides the space everywhere, restore brings it back', async () => {
    const c = await newCollection(server, fx.admin, fx.org.id);
    const s = await newSpace(server, fx.admin, fx.org.id, { parent: c.id });
    const other = await newSpace(server, fx.admin, fx.org.id);
    await server.as(fx.admin.token).delete(`/v1/spaces/${s.id}`).expect(204);
    const row = await server.ds.manager.findOneByOrFail(Space, { id: s.id });
    expect(row.deletedAt).not.toBeNull();
    if (await server.temporal.isHealthy()) expect(row.purge.runId).not.toBeNull();
    await server.as(fx.admin.token).get(`/v1/spaces/${s.id}`).expect(404);
    await server.as(fx.admin.token).patch(`/v1/spaces/${s.id}`).send({ title: 'x' }).expect(404);
    expect(ids((await listAll(server, fx.admin, `/v1/orgs/${fx.org.id}/spaces`)).items)).toEqual([other.id]);
    expect(ids((await listAll(server, fx.admin, `/v1/collections/${c.id}/spaces`)).items)).toEqual([]);
    // Deleting again is still 204.
    await server.as(fx.admin.token).delete(`/v1/spaces/${s.id}`).expect(204);

    const restored = await server.as(fx.admin.token).post(`/v1/spaces/${s.id}/restore`).expect(200);
    expect(restored.body).toMatchObject({ object: 'space', id: s.id, parent: c.id });
    expect(restored.body).not.toHaveProperty('deletedAt');
    expect(ids((await listAll(server, fx.admin, `/v1/orgs/${fx.org.id}/spaces`)).items)).toEqual([other.id, s.id]);
    expect(ids((await listAll(server, fx.admin, `/v1/collections/${c.id}/spaces`)).items)).toEqual([s.id]);
    // Restoring a space that is not deleted answers it unchanged.
    const again = await server.as(fx.admin.token).post(`/v1/spaces/${s.id}/restore`).expect(200);
    expect(again.body.updatedAt).toBe(restored.body.updatedAt);
    await server.as(fx.admin.token).post('/v1/spaces/nope/restore').expect(404);
  });

  it('still answers 204 when Temporal is unreachable, and a retried DELETE starts the purge', async () => {
    const offline = await startServer({ temporal: { ...server.config.temporal, address: '127.0.0.1:1' } });
    try {
      const s = await newSpace(server, fx.admin, fx.org.id);
      await offline.as(fx.admin.token).delete(`/v1/spaces/${s.id}`).expect(204);
      const row = await server.ds.manager.findOneByOrFail(Space, { id: s.id });
      expect(row.deletedAt).not.toBeNull();
      expect(row.purge.runId).toBeNull();
      await server.as(fx.admin.token).get(`/v1/spaces/${s.id}`).expect(404);
      if (await server.temporal.isHealthy()) {
        await server.as(fx.admin.token).delete(`/v1/spaces/${s.id}`).expect(204);
        const repaired = await server.ds.manager.findOneByOrFail(Space, { id: s.id });
        expect(repaired.purge.runId).not.toBeNull();
        expect(repaired.deletedAt).toEqual(row.deletedAt);
      }
      // Restore also answers 200 when the purge cannot be cancelled (the workflow re-checks the row).
      await offline.as(fx.admin.token).post(`/v1/spaces/${s.id}/restore`).expect(200);
      await server.as(fx.admin.token).get(`/v1/spaces/${s.id}`).expect(200);
    } finally {
      await offline.close();
    }
  });

  it('duplicates a space right after the original with a 201 and Location', async () => {
    const c = await newCollection(server, fx.admin, fx.org.id);
    const a = await newSpace(server, fx.admin, fx.org.id, {
      parent: c.id,
      title: 'A',
      emoji: '📗',
      language: 'de',
      editMode: 'locked',
    });
    const b = await newSpace(server, fx.admin, fx.org.id, { parent: c.id, title: 'B' });
    await server.as(fx.admin.token).patch(`/v1/spaces/${a.id}`).send({ defaultLevel: 'edit' }).expect(200);
    const res = await server.as(fx.admin.token).post(`/v1/spaces/${a.id}/duplicate`).expect(201);
    expect(res.headers.location).toBe(`${server.config.publicBaseUrl}/v1/spaces/${res.body.id}`);
    expect(res.body.id).not.toBe(a.id);
    expect(res.body).toMatchObject({
      title: 'A (copy)',
      emoji: '📗',
      language: 'de',
      editMode: 'locked',
      defaultLevel: 'edit',
      visibility: 'private',
      parent: c.id,
      organization: fx.org.id,
    });
    expect(ids((await listAll(server, fx.admin, `/v1/collections/${c.id}/spaces`)).items)).toEqual([
      a.id,
      res.body.id,
      b.id,
    ]);
    const long = await newSpace(server, fx.admin, fx.org.id, { title: 'x'.repeat(50) });
    const copy = await server.as(fx.admin.token).post(`/v1/spaces/${long.id}/duplicate`).expect(201);
    expect(copy.body.title).toBe(`${'x'.repeat(43)} (copy)`);
    await server.as(fx.admin.token).post('/v1/spaces/nope/duplicate').expect(404);
  });

  describe('move', () => {
    it('moves into a collection, next to a sibling and back to the root', async () => {
      const c = await newCollection(server, fx.admin, fx.org.id);
      const inside = await newSpace(server, fx.admin, fx.org.id, { parent: c.id });
      const s = await newSpace(server, fx.admin, fx.org.id);
      const res = await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${s.id}/move`)
        .send({ parent: c.id, position: { before: { type: 'space', space: inside.id } } })
        .expect(200);
      expect(res.body).toMatchObject({ object: 'space', id: s.id, parent: c.id });
      expect(ids((await listAll(server, fx.admin, `/v1/collections/${c.id}/spaces`)).items)).toEqual([s.id, inside.id]);
      await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${s.id}/move`)
        .send({ position: { after: { type: 'space', space: inside.id } } })
        .expect(200);
      expect(ids((await listAll(server, fx.admin, `/v1/collections/${c.id}/spaces`)).items)).toEqual([inside.id, s.id]);
      const root = await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${s.id}/move`)
        .send({ parent: null, position: { after: { type: 'collection', collection: c.id } } })
        .expect(200);
      expect(root.body).not.toHaveProperty('parent');
    });

    it('answers 404, 400 and 409 for the spec conditions', async () => {
      const c = await newCollection(server, fx.admin, fx.org.id);
      const elsewhere = await newSpace(server, fx.admin, fx.org.id, { parent: c.id });
      const s = await newSpace(server, fx.admin, fx.org.id);
      const next = await newSpace(server, fx.admin, fx.org.id);
      await server.as(fx.admin.token).post('/v1/spaces/nope/move').send({ parent: null }).expect(404);
      const cases: Array<[object, string]> = [
        [
          { position: { before: { type: 'space', space: elsewhere.id } } },
          `position: space "${elsewhere.id}" is not in the target parent`,
        ],
        [
          { position: { before: { type: 'collection', collection: 'nope' } } },
          'position: collection "nope" is not in the target parent',
        ],
        [
          { position: { before: { type: 'space', space: s.id } } },
          'position: an item cannot be placed relative to itself',
        ],
        [
          { position: { before: { type: 'user', user: 'x' } } },
          'position.before.type: must be one of space, collection',
        ],
        [{ parent: 'nope' }, 'parent: no such collection in this organization'],
        [{}, 'request body: must contain parent or position'],
      ];
      for (const [body, message] of cases) {
        const res = await server.as(fx.admin.token).post(`/v1/spaces/${s.id}/move`).send(body).expect(400);
        expect(res.body.error.message).toBe(message);
      }
      for (const body of [{ parent: null }, { position: { before: { type: 'space', space: next.id } } }]) {
        const res = await server.as(fx.admin.token).post(`/v1/spaces/${s.id}/move`).send(body).expect(409);
        expect(res.body.error.message).toBe('the move would not change anything');
      }
    });
  });

  describe('transfer', () => {
    it('transfers to another organization root, dropping grants, or into a collection', async () => {
      const target = await createOrg(server.ds);
      await addOrUpdateMember(server.ds.manager, target.org.id, fx.admin.user.id, 'create');
      const s = await newSpace(server, fx.admin, fx.org.id);
      const editor = await addMember(server.ds, fx.org, null);
      await grant(server.ds, fx.org.id, 'space', s.id, editor.user.id, 'edit');
      await server.as(editor.token).get(`/v1/spaces/${s.id}`).expect(200);

      const res = await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${s.id}/transfer`)
        .send({ organization: target.org.id })
        .expect(200);
      expect(res.body).toMatchObject({ object: 'space', id: s.id, organization: target.org.id });
      expect(res.body).not.toHaveProperty('parent');
      expect(await server.ds.manager.countBy(ContentGrant, { targetId: s.id })).toBe(0);
      await server.as(editor.token).get(`/v1/spaces/${s.id}`).expect(404);
      expect(ids((await listAll(server, target.admin, `/v1/orgs/${target.org.id}/spaces`)).items)).toEqual([s.id]);

      // Within its (new) organization: into a collection by `parent` alone, then with both fields.
      const c = await newCollection(server, target.admin, target.org.id);
      const moved = await server
        .as(target.admin.token)
        .post(`/v1/spaces/${s.id}/transfer`)
        .send({ parent: c.id })
        .expect(200);
      expect(moved.body).toMatchObject({ organization: target.org.id, parent: c.id });
      const home = await newCollection(server, fx.admin, fx.org.id);
      await addOrUpdateMember(server.ds.manager, fx.org.id, target.admin.user.id, 'create');
      const back = await server
        .as(target.admin.token)
        .post(`/v1/spaces/${s.id}/transfer`)
        .send({ organization: fx.org.id, parent: home.id })
        .expect(200);
      expect(back.body).toMatchObject({ organization: fx.org.id, parent: home.id });
    });

    it('answers 400, 404, 403 and 409 for the spec conditions', async () => {
      const c = await newCollection(server, fx.admin, fx.org.id);
      const s = await newSpace(server, fx.admin, fx.org.id, { parent: c.id });
      const empty = await server.as(fx.admin.token).post(`/v1/spaces/${s.id}/transfer`).send({}).expect(400);
      expect(empty.body.error.message).toBe('request body: must contain organization or parent');
      for (const body of [{ organization: fx.org.id }, { parent: c.id }, { organization: fx.org.id, parent: c.id }]) {
        const res = await server.as(fx.admin.token).post(`/v1/spaces/${s.id}/transfer`).send(body).expect(409);
        expect(res.body.error.message).toBe('the transfer would not change anything');
      }
      await server.as(fx.admin.token).post('/v1/spaces/nope/transfer').send({ organization: fx.org.id }).expect(404);
      const unseen = await createOrg(server.ds);
      const res = await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${s.id}/transfer`)
        .send({ organization: unseen.org.id })
        .expect(404);
      expect(res.body.error.message).toBe('organization not found');
      const readOnly = await createOrg(server.ds);
      await addOrUpdateMember(server.ds.manager, readOnly.org.id, fx.admin.user.id, 'read');
      await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${s.id}/transfer`)
        .send({ organization: readOnly.org.id })
        .expect(403);
      const foreign = await newCollection(server, readOnly.admin, readOnly.org.id);
      const wrongParent = await server
        .as(fx.admin.token)
        .post(`/v1/spaces/${s.id}/transfer`)
        .send({ parent: foreign.id })
        .expect(400);
      expect(wrongParent.body.error.message).toBe('parent: no such collection in this organization');
      expect((await server.as(fx.admin.token).get(`/v1/spaces/${s.id}`).expect(200)).body).toMatchObject({
        organization: fx.org.id,
        parent: c.id,
      });
    });
  });

  describe('member spaces', () => {
    it("lists the spaces a member can access with the member's role, in either order, across pages", async () => {
      const guest = await addMember(server.ds, fx.org, null);
      const c = await newCollection(server, fx.admin, fx.org.id);
      const a = await newSpace(server, fx.admin, fx.org.id, { parent: c.id });
      const b = await newSpace(server, fx.admin, fx.org.id);
      const hidden = await newSpace(server, fx.admin, fx.org.id);
      const d = await newSpace(server, fx.admin, fx.org.id, { parent: c.id });
      await grant(server.ds, fx.org.id, 'collection', c.id, guest.user.id, 'comment');
      await grant(server.ds, fx.org.id, 'space', b.id, guest.user.id, 'review');
      await grant(server.ds, fx.org.id, 'space', d.id, guest.user.id, 'admin');
      const path = `/v1/orgs/${fx.org.id}/members/${guest.user.id}/spaces`;
      const desc = await server.as(fx.admin.token).get(path).query({ limit: 2 }).expect(200);
      expect(desc.body.count).toBe(3);
      expect(desc.body.items.map((i: Json) => [i.space.id, i.permission])).toEqual([
        [d.id, 'admin'],
        [b.id, 'review'],
      ]);
      expect(desc.body.items[0].space).toMatchObject({ object: 'space', permissions: { admin: true } });
      const rest = await server.as(fx.admin.token).get(path).query({ limit: 2, page: desc.body.next.page }).expect(200);
      expect(rest.body.items.map((i: Json) => [i.space.id, i.permission])).toEqual([[a.id, 'comment']]);
      expect(rest.body.next).toBeUndefined();
      const asc = await server.as(fx.admin.token).get(path).query({ order: 'asc' }).expect(200);
      expect(asc.body.items.map((i: Json) => i.space.id)).toEqual([a.id, b.id, d.id]);
      expect(asc.body.items.map((i: Json) => i.space.id)).not.toContain(hidden.id);
      const foreign = await server
        .as(fx.admin.token)
        .get(path)
        .query({ order: 'asc', page: desc.body.next.page })
        .expect(400);
      expect(foreign.body.error.message).toBe('page: invalid or expired cursor');

      const reader = await addMember(server.ds, fx.org, 'read');
      const own = await server
        .as(reader.token)
        .get(`/v1/orgs/${fx.org.id}/members/${reader.user.id}/spaces`)
        .expect(200);
      expect(own.body.count).toBe(4);
      expect(new Set(own.body.items.map((i: Json) => i.permission))).toEqual(new Set(['read']));
    });

    it('answers 400 for a bad order, 404 for an unknown member and 403 without listMembers', async () => {
      const bad = await server
        .as(fx.admin.token)
        .get(`/v1/orgs/${fx.org.id}/members/${fx.admin.user.id}/spaces`)
        .query({ order: 'up' })
        .expect(400);
      expect(bad.body.error.message).toBe('order: must be one of asc, desc');
      const unknown = await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/members/nobody/spaces`).expect(404);
      expect(unknown.body.error.message).toBe('member not found');
      const guest = await addMember(server.ds, fx.org, null);
      await server.as(guest.token).get(`/v1/orgs/${fx.org.id}/members/${fx.admin.user.id}/spaces`).expect(403);
    });
  });
});
