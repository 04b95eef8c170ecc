/** Change requests through the API: create, read by id or number, patch, list filters and pages, space counters. */
import request from 'supertest';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, listAll, newChangeRequest, newSpace } from '../support/api';
import { writeHead } from '../support/heads';
import { useServer } from '../support/server';

const server = useServer();

const numbers = (items: Json[]): number[] => items.map((i) => i.number);

describe('change requests', () => {
  let fx: OrgFixture;
  let space: Json;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    space = await newSpace(server, fx.admin, fx.org.id);
  });

  it('creates a change request from the space revision with the spec fields, and reads it by id or number', async () => {
    const res = await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${space.id}/change-requests`)
      .send({ subject: 'Fix typos', agentTaskId: 'task-1' })
      .expect(201);
    const id = res.body.id;
    const location = `${server.config.publicBaseUrl}/v1/spaces/${space.id}/change-requests/${id}`;
    expect(res.headers.location).toBe(location);
    expect(res.body).toEqual({
      object: 'change-request',
      id: expect.any(String),
      number: 1,
      status: 'open',
      subject: 'Fix typos',
      createdBy: {
        object: 'user',
        id: fx.admin.user.id,
        displayName: fx.admin.user.displayName,
        email: fx.admin.user.email,
        urls: { location: `${server.config.publicBaseUrl}/v1/users/${fx.admin.user.id}` },
      },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      urls: { app: `${server.config.appBaseUrl}/o/${fx.org.id}/s/${space.id}/~/changes/1`, location },
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);

    const second = await newChangeRequest(server, fx.admin, space.id);
    expect(second).toMatchObject({ number: 2, subject: '', status: 'open' });
    const byId = await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/change-requests/${id}`).expect(200);
    const byNumber = await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/change-requests/1`).expect(200);
    expect(byId.body).toEqual(res.body);
    expect(byNumber.body).toEqual(res.body);
    expect((await server.as(fx.admin.token).get(`/v1/spaces/${space.id}/change-requests/2`).expect(200)).body.id).toBe(
      second.id,
    );

    // numbers are per space
    const other = await newSpace(server, fx.admin, fx.org.id);
    expect((await newChangeRequest(server, fx.admin, other.id)).number).toBe(1);
    const missing = await server.as(fx.admin.token).get(`/v1/spaces/${other.id}/change-requests/2`).expect(404);
    expect(missing.body).toEqual({ error: { code: 404, message: 'change request not found' } });
    await server.as(fx.admin.token).get(`/v1/spaces/${other.id}/change-requests/${id}`).expect(404);
  });

  it('validates create, patch and list input', async () => {
    const createCases: Array<[object, string]> = [
      [{ subject: 'x'.repeat(101) }, 'subject: must be at most 100 characters'],
      [{ subject: 5 }, 'subject: must be a string, not number'],
      [{ agentTaskId: 'x'.repeat(129) }, 'agentTaskId: must be at most 128 characters'],
      [{ agentTaskId: '' }, 'agentTaskId: must be at least 1 character'],
      [{ status: 'draft' }, 'status: unknown field; accepted: subject, agentTaskId'],
      [{ number: 7 }, 'number: unknown field; accepted: subject, agentTaskId'],
    ];
    for (const [body, message] of createCases) {
      const res = await server.as(fx.admin.token).post(`/v1/spaces/${space.id}/change-requests`).send(body).expect(400);
      expect(res.body.error).toEqual({ code: 400, message });
    }
    expect((await newChangeRequest(server, fx.admin, space.id, { subject: 'x'.repeat(100) })).subject).toHaveLength(
      100,
    );

    const cr = await newChangeRequest(server, fx.admin, space.id);
    const patchCases: Array<[object, string]> = [
      [{ status: 'merged' }, 'status: must be one of draft, open, archived'],
      [{ status: 'closed' }, 'status: must be one of draft, open, archived'],
      [{ status: 1 }, 'status: must be one of draft, open, archived'],
      [{ subject: 'x'.repeat(101) }, 'subject: must be at most 100 characters'],
      [{ revision: 'r' }, 'revision: unknown field; accepted: subject, status, description'],
    ];
    for (const [body, message] of patchCases) {
      const res = await server
        .as(fx.admin.token)
        .patch(`/v1/spaces/${space.id}/change-requests/${cr.id}`)
        .send(body)
        .expect(400);
      expect(res.body.error.message).toBe(message);
    }

    const listCases: Array<[Record<string, string>, string]> = [
      [{ status: 'closed' }, 'status: must be one of draft, open, archived, merged'],
      [{ contributor: 'x'.repeat(65) }, 'contributor: must be at most 64 characters'],
      [{ limit: '1001' }, 'limit: must be at most 1000'],
      [{ orderBy: 'number' }, 'orderBy: must be one of updatedAt, createdAt'],
      [{ creator: 'not an id' }, 'creator: must be an id (letters, digits, "-" and "_")'],
    ];
    for (const [query, message] of listCases) {
      const res = await server
        .as(fx.admin.token)
        .get(`/v1/spaces/${space.id}/change-requests`)
        .query(query)
        .expect(400);
      expect(res.body.error.message).toBe(message);
    }
  });

  it('patches subject and status; a merged change request keeps its status', async () => {
    const cr = await newChangeRequest(server, fx.admin, space.id, { subject: 'Draft me' });
    const path = `/v1/spaces/${space.id}/change-requests/${cr.number}`;
    const drafted = await server
      .as(fx.admin.token)
      .patch(path)
      .send({ status: 'draft', subject: 'Renamed' })
      .expect(200);
    expect(drafted.body).toMatchObject({ id: cr.id, status: 'draft', subject: 'Renamed', revision: cr.revision });
    expect(Date.parse(drafted.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(cr.updatedAt));
    expect((await server.as(fx.admin.token).get(path).expect(200)).body).toEqual(drafted.body);
    expect((await server.as(fx.admin.token).patch(path).send({ status: 'archived' }).expect(200)).body.status).toBe(
      'archived',
    );
    expect((await server.as(fx.admin.token).patch(path).send({ status: 'open' }).expect(200)).body.status).toBe('open');

    await server.as(fx.admin.token).post(`${path}/merge`).expect(200);
    const refused = await server.as(fx.admin.token).patch(path).send({ status: 'open' }).expect(409);
    expect(refused.body).toEqual({
      error: { code: 409, message: 'status: a merged change request cannot change status' },
    });
    const renamed = await server.as(fx.admin.token).patch(path).send({ subject: 'Merged work' }).expect(200);
    expect(renamed.body).toMatchObject({ status: 'merged', subject: 'Merged work' });
  });

  it('answers 401 without a valid token', async () => {
    await request(server.app).get(`/v1/spaces/${space.id}/change-requests`).expect(401);
    await server.as('garbage').post(`/v1/spaces/${space.id}/change-requests`).send({}).expect(401);
  });

  it('hides change requests from another organization (404); read members may only read, merging needs review', async () => {
    const cr = await newChangeRequest(server, fx.admin, space.id);
    const base = `/v1/spaces/${space.id}/change-requests`;
    const outsider = await createOrg(server.ds);
    const o = server.as(outsider.admin.token);
    for (const res of [
      await o.get(base),
      await o.post(base).send({}),
      await o.get(`${base}/${cr.id}`),
      await o.patch(`${base}/${cr.id}`).send({ subject: 'x' }),
      await o.post(`${base}/${cr.id}/merge`),
      await o.post(`${base}/${cr.id}/update`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'space not found' } });
    }

    const reader = await addMember(server.ds, fx.org, 'read');
    const r = server.as(reader.token);
    expect((await r.get(base).expect(200)).body.items.map((i: Json) => i.id)).toEqual([cr.id]);
    await r.get(`${base}/${cr.number}`).expect(200);
    const denied = await r.post(base).send({}).expect(403);
    expect(denied.body.error).toEqual({ code: 403, message: 'you need the "edit" permission on this space' });
    await r.patch(`${base}/${cr.id}`).send({ subject: 'x' }).expect(403);
    await r.post(`${base}/${cr.id}/update`).expect(403);
    expect((await r.post(`${base}/${cr.id}/merge`).expect(403)).body.error.message).toBe(
      'you need the "merge" permission on this space',
    );

    const editor = await addMember(server.ds, fx.org, 'edit');
    const e = server.as(editor.token);
    const own = await newChangeRequest(server, editor, space.id, { subject: 'mine' });
    expect(own.createdBy.id).toBe(editor.user.id);
    await e.patch(`${base}/${own.id}`).send({ subject: 'still mine' }).expect(200);
    await e.post(`${base}/${own.id}/update`).expect(200);
    await e.post(`${base}/${own.id}/merge`).expect(403);
    await server
      .as((await addMember(server.ds, fx.org, 'review')).token)
      .post(`${base}/${own.id}/merge`)
      .expect(200);

    // an unknown change request is 404 for a caller who may see the space; permission is decided first
    await r.get(`${base}/nothere`).expect(404);
    await r.post(`${base}/999/merge`).expect(403);
  });

  it('lists by number descending across pages, refusing forged cursors and cursors of another filter', async () => {
    for (let i = 0; i < 3; i++) await newChangeRequest(server, fx.admin, space.id, { subject: `CR ${i}` });
    const path = `/v1/spaces/${space.id}/change-requests`;
    const listed = await listAll(server, fx.admin, path, { limit: 1 });
    expect(listed.pages).toBe(3);
    expect(listed.counts).toEqual([3, 3, 3]);
    expect(numbers(listed.items)).toEqual([3, 2, 1]);
    expect(listed.items[0]).toMatchObject({
      object: 'change-request',
      subject: 'CR 2',
      createdBy: { id: fx.admin.user.id },
    });

    const first = await server.as(fx.admin.token).get(path).query({ limit: 1 }).expect(200);
    expect(first.body.next.page).toEqual(expect.any(String));
    const forged = await server.as(fx.admin.token).get(path).query({ page: 'eyJ4IjoxfQ.abc' }).expect(400);
    expect(forged.body.error.message).toBe('page: invalid or expired cursor');
    const foreign = await server
      .as(fx.admin.token)
      .get(path)
      .query({ page: first.body.next.page, status: 'draft' })
      .expect(400);
    expect(foreign.body.error.message).toBe('page: invalid or expired cursor');
    const last = await server.as(fx.admin.token).get(path).query({ limit: 5 }).expect(200);
    expect(last.body.next).toBeUndefined();
  });

  it('filters by status (default open) and counts change requests on the space', async () => {
    const crs: Json[] = [];
    for (let i = 0; i < 5; i++) crs.push(await newChangeRequest(server, fx.admin, space.id));
    const path = `/v1/spaces/${space.id}/change-requests`;
    await server.as(fx.admin.token).patch(`${path}/${crs[1].id}`).send({ status: 'draft' }).expect(200);
    await server.as(fx.admin.token).patch(`${path}/${crs[2].id}`).send({ status: 'archived' }).expect(200);
    await server.as(fx.admin.token).post(`${path}/${crs[4].id}/merge`).expect(200);

    const byStatus = async (status?: string) =>
      numbers((await listAll(server, fx.admin, path, status ? { status } : {})).items);
    expect(await byStatus()).toEqual([4, 1]);
    expect(await byStatus('open')).toEqual([4, 1]);
    expect(await byStatus('draft')).toEqual([2]);
    expect(await byStatus('archived')).toEqual([3]);
    expect(await byStatus('merged')).toEqual([5]);

    const counted = await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).expect(200);
    expect(counted.body).toMatchObject({
      changeRequests: 5,
      changeRequestsOpen: 2,
      changeRequestsDraft: 1,
      comments: 0,
    });
    const other = await newSpace(server, fx.admin, fx.org.id);
    const inList = (await server.as(fx.admin.token).get(`/v1/orgs/${fx.org.id}/spaces`).expect(200)).body.items;
    expect(inList.find((s: Json) => s.id === space.id)).toMatchObject({
      changeRequests: 5,
      changeRequestsOpen: 2,
      changeRequestsDraft: 1,
    });
    expect(inList.find((s: Json) => s.id === other.id)).toMatchObject({
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
    });
  });

  it('filters by contributor: the creator or the writer of one of its revisions', async () => {
    const alice = await addMember(server.ds, fx.org, 'edit');
    const bob = await addMember(server.ds, fx.org, 'edit');
    const byAlice = await newChangeRequest(server, alice, space.id);
    const byBob = await newChangeRequest(server, bob, space.id);
    const untouched = await newChangeRequest(server, fx.admin, space.id);
    await writeHead(server, { kind: 'change-request', changeRequestId: byAlice.id }, bob.user.id, (e) =>
      e.createPage({ title: 'By Bob' }),
    );
    const path = `/v1/spaces/${space.id}/change-requests`;
    const of = async (userId: string) =>
      (await listAll(server, fx.admin, path, { contributor: userId })).items.map((i) => i.id);
    expect(await of(bob.user.id)).toEqual([byBob.id, byAlice.id]);
    expect(await of(alice.user.id)).toEqual([byAlice.id]);
    expect(await of(fx.admin.user.id)).toEqual([untouched.id]);
    expect(await of('nobody')).toEqual([]);
    // the filter combines with status
    await server.as(fx.admin.token).patch(`${path}/${byAlice.id}`).send({ status: 'draft' }).expect(200);
    expect(
      (await listAll(server, fx.admin, path, { contributor: bob.user.id, status: 'draft' })).items.map((i) => i.id),
    ).toEqual([byAlice.id]);
    // merging (a revision recorded against the change request) does not make the merger a contributor
    const reviewer = await addMember(server.ds, fx.org, 'review');
    await server.as(reviewer.token).post(`${path}/${byBob.id}/merge`).expect(200);
    expect((await listAll(server, fx.admin, path, { contributor: reviewer.user.id, status: 'merged' })).items).toEqual(
      [],
    );
    expect(
      (await listAll(server, fx.admin, path, { contributor: bob.user.id, status: 'merged' })).items.map((i) => i.id),
    ).toEqual([byBob.id]);
  });
});
