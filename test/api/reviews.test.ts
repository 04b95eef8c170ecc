/** Reviews of change requests: the reviews asked of users, the reviews given against a revision, the contributors. */
import request from 'supertest';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, newChangeRequest, newSpace } from '../support/api';
import { useGitBookClient } from '../support/gitbook-client';
import { useServer } from '../support/server';

const server = useServer();
const client = useGitBookClient(server);

const DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Looks good', marks: [] }] }],
    },
  ],
};

describe('change request reviews', () => {
  let fx: OrgFixture;
  let space: Json;
  let cr: Json;
  let path: string;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
    space = await newSpace(server, fx.admin, fx.org.id);
    cr = await newChangeRequest(server, fx.admin, space.id, { subject: 'Docs' });
    path = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
  });

  it('asks users for reviews, lists and withdraws the requests, and a review answers one', async () => {
    const ada = await addMember(server.ds, fx.org, 'review', 'ada');
    const bob = await addMember(server.ds, fx.org, 'admin', 'bob');
    const gitbook = client(fx.admin.token);
    const asked = await gitbook.spaces.requestReviewersForChangeRequest(space.id, cr.id, {
      users: [ada.user.id, bob.user.id, ada.user.id],
      subject: 'Docs, ready',
    });
    expect(asked.data.users).toEqual([
      expect.objectContaining({
        object: 'change-request-requested-reviewer',
        kind: 'user',
        user: expect.objectContaining({ id: ada.user.id }),
        requestedBy: expect.objectContaining({ id: fx.admin.user.id }),
        revision: cr.revision,
      }),
      expect.objectContaining({ user: expect.objectContaining({ id: bob.user.id }) }),
    ]);
    expect((await server.as(fx.admin.token).get(path).expect(200)).body.subject).toBe('Docs, ready');
    const listed = await gitbook.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id);
    // oldest request first, then by user id (both were asked in one request)
    expect(listed.data.items.map((r: Json) => r.user.id)).toEqual([ada.user.id, bob.user.id].sort());
    expect(listed.data.count).toBe(2);

    await gitbook.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, bob.user.id);
    await server.as(fx.admin.token).delete(`${path}/requested-reviewers/${bob.user.id}`).expect(204);
    const reviewed = await server
      .as(ada.token)
      .post(`${path}/reviews`)
      .send({ status: 'changes-requested' })
      .expect(201);
    expect(reviewed.body.requestedBy.id).toBe(fx.admin.user.id);
    expect((await server.as(fx.admin.token).get(`${path}/requested-reviewers`).expect(200)).body).toEqual({
      items: [],
      count: 0,
    });
  });

  it('refuses reviewers who cannot review: not a member, without review, the author; empty users set the subject', async () => {
    const reader = await addMember(server.ds, fx.org, 'edit');
    const other = await createOrg(server.ds);
    const cases: Array<[string, string]> = [
      [other.admin.user.id, `users: "${other.admin.user.id}" is not a member of this organization`],
      ['unknownUser', 'users: "unknownUser" is not a member of this organization'],
      [reader.user.id, `users: "${reader.user.id}" does not have the review permission on this space`],
      [fx.admin.user.id, `users: "${fx.admin.user.id}" is the author of the change request`],
    ];
    for (const [user, message] of cases) {
      const res = await server
        .as(fx.admin.token)
        .post(`${path}/requested-reviewers`)
        .send({ users: [user], subject: 'Not set' })
        .expect(400);
      expect(res.body.error.message).toBe(message);
    }
    expect((await server.as(fx.admin.token).get(path).expect(200)).body.subject).toBe('Docs');
    const bodies: Array<[object, string]> = [
      [{}, 'users: is required'],
      [{ users: ['a b'] }, 'users.0: must be an id (letters, digits, "-" and "_")'],
      [{ users: [], team: 'x' }, 'team: unknown field; accepted: users, subject'],
    ];
    for (const [body, message] of bodies) {
      const res = await server.as(fx.admin.token).post(`${path}/requested-reviewers`).send(body).expect(400);
      expect(res.body.error.message).toBe(message);
    }
    const renamed = await server
      .as(fx.admin.token)
      .post(`${path}/requested-reviewers`)
      .send({ users: [], subject: 'Renamed' })
      .expect(200);
    expect(renamed.body).toEqual({ users: [] });
  });

  it('records reviews against the revision with their comment, reads one, and marks superseded ones outdated', async () => {
    const ada = await addMember(server.ds, fx.org, 'review', 'ada');
    const gitbook = client(ada.token);
    const first = await gitbook.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: 'changes-requested' as never,
      comment: DOCUMENT as never,
    });
    expect(first.status).toBe(201);
    const location = `${server.config.publicBaseUrl}${path}/reviews/${first.data.id}`;
    expect(first.headers.get('location')).toBe(location);
    expect(first.data).toEqual({
      object: 'change-request-review',
      id: expect.any(String),
      revision: cr.revision,
      reviewer: expect.objectContaining({ id: ada.user.id }),
      status: 'changes-requested',
      outdated: false,
      comment: expect.objectContaining({ object: 'comment', body: { markdown: 'Looks good' } }),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      urls: { location },
    });
    // the comment is one of the change request's comments
    const comments = (await server.as(ada.token).get(`${path}/comments`).expect(200)).body.items;
    expect(comments.map((c: Json) => c.id)).toEqual([first.data.comment!.id]);

    const second = await server.as(ada.token).post(`${path}/reviews`).send({ status: 'approved' }).expect(201);
    const listed = await gitbook.spaces.getReviewsByChangeRequestId(space.id, cr.id);
    expect(listed.data.items.map((r: Json) => [r.id, r.status, r.outdated])).toEqual([
      [first.data.id, 'changes-requested', true],
      [second.body.id, 'approved', false],
    ]);
    const one = await server.as(fx.admin.token).get(`${path}/reviews/${first.data.id}`).query({ format: 'document' });
    expect(one.status).toBe(200);
    expect(one.body.comment.body.document.object).toBe('document');
    await server.as(fx.admin.token).get(`${path}/reviews/unknown`).expect(404);

    const bad: Array<[object, string]> = [
      [{}, 'status: is required'],
      [{ status: 'rejected' }, 'status: must be one of approved, changes-requested'],
      [{ status: 'approved', comment: { markdown: 'x' } }, expect.stringMatching(/^comment/) as never],
    ];
    for (const [body, message] of bad) {
      const res = await server.as(ada.token).post(`${path}/reviews`).send(body).expect(400);
      expect(res.body.error.message).toEqual(message);
    }
  });

  it('needs review on the space, refuses the author its own approval, and takes no review once merged', async () => {
    const editor = await addMember(server.ds, fx.org, 'edit');
    const ada = await addMember(server.ds, fx.org, 'review');
    await server.as(editor.token).post(`${path}/reviews`).send({ status: 'approved' }).expect(403);
    const own = await server.as(fx.admin.token).post(`${path}/reviews`).send({ status: 'approved' }).expect(403);
    expect(own.body.error.message).toBe('the author of a change request cannot approve it');
    await server.as(fx.admin.token).post(`${path}/reviews`).send({ status: 'changes-requested' }).expect(201);
    await request(server.app).post(`${path}/reviews`).send({ status: 'approved' }).expect(401);
    const other = await createOrg(server.ds);
    await server.as(other.admin.token).post(`${path}/reviews`).send({ status: 'approved' }).expect(404);
    await server.as(other.admin.token).get(`${path}/reviews`).expect(404);
    await server.as(other.admin.token).get(`${path}/contributors`).expect(404);
    await server.as(editor.token).get(`${path}/reviews`).expect(200);

    await server.as(fx.admin.token).post(`${path}/merge`).expect(200);
    const late = await server.as(ada.token).post(`${path}/reviews`).send({ status: 'approved' }).expect(409);
    expect(late.body.error.message).toBe('the change request is merged: it takes no more reviews');
  });

  it('lists the contributors: who wrote revisions, how many, most recent first', async () => {
    const editor = await addMember(server.ds, fx.org, 'edit');
    expect((await client(fx.admin.token).spaces.getContributorsByChangeRequestId(space.id, cr.id)).data).toEqual({
      items: [],
      count: 0,
    });
    const write = (token: string, title: string) =>
      server.as(token).post(`${path}/content/pages`).send({ title, markdown: 'Text.' }).expect(201);
    await write(fx.admin.token, 'One');
    await write(fx.admin.token, 'Two');
    await write(editor.token, 'Three');
    const res = await client(fx.admin.token).spaces.getContributorsByChangeRequestId(space.id, cr.id);
    expect(res.data.items.map((c: Json) => [c.user.id, c.count])).toEqual([
      [editor.user.id, 1],
      [fx.admin.user.id, 2],
    ]);
    expect(res.data.count).toBe(2);
  });
});
