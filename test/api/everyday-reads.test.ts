/** Everyday reads GitBook has beside the spec's: the API information, a space's reply lists and commenters, a user's own profile. */
import request from 'supertest';
import { version } from '../../package.json';
import { addMember, createOrg } from '../factories';
import { commentFixture } from '../support/comments';
import { useGitBookClient } from '../support/gitbook-client';
import { useServer } from '../support/server';

const server = useServer();
const client = useGitBookClient(server);

describe('the API information', () => {
  it('names the release that answers and its build date, with or without a token', async () => {
    const fx = await createOrg(server.ds);
    const info = (await client(fx.admin.token).getApiInformation()).data;
    expect(info).toEqual({ version, build: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    expect((await request(server.app).get('/v1').expect(200)).body).toEqual(info);
    // nothing to validate, but a known path: another method is a 405
    await request(server.app).post('/v1/').send({}).expect(405);
  });
});

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

describe("a space's own comment threads", () => {
  it('lists the replies of a comment oldest first, a page at a time, and who wrote in the space', async () => {
    const f = await commentFixture(server);
    const say = (markdown: string) => ({ body: { markdown } });
    const comment = (await server.as(f.editor.token).post(f.spaceComments).send(say('Is this right?')).expect(200))
      .body;
    const replies = `${f.spaceComments}/${comment.id}/replies`;
    const first = (await server.as(f.commenter.token).post(replies).send(say('Yes.')).expect(200)).body;
    const second = (await server.as(f.editor.token).post(replies).send(say('Thanks.')).expect(200)).body;
    // a change request's thread is not the space's: its author is no commenter of the space
    await server.as(f.fx.admin.token).post(f.crComments).send(say('Elsewhere.')).expect(200);

    const api = client(f.reader.token);
    const page1 = (await api.spaces.listCommentRepliesInSpace(f.space.id, comment.id, { limit: 1 })).data;
    expect(page1.items.map((r) => r.id)).toEqual([first.id]);
    expect(page1.count).toBe(2);
    const page2 = (
      await api.spaces.listCommentRepliesInSpace(f.space.id, comment.id, { limit: 1, page: page1.next!.page })
    ).data;
    expect(page2.items.map((r) => r.id)).toEqual([second.id]);
    expect(page2.next).toBeUndefined();
    const asDocument = (await api.spaces.listCommentRepliesInSpace(f.space.id, comment.id, { format: 'document' }))
      .data;
    expect(asDocument.items[0].body).toHaveProperty('document');

    const commenters = (await api.spaces.listCommentersInSpace(f.space.id)).data;
    expect(commenters.items.map((m) => m.user.id).sort()).toEqual([f.editor.user.id, f.commenter.user.id].sort());
    const crCommenters = (
      await server.as(f.reader.token).get(`/v1/spaces/${f.space.id}/change-requests/${f.changeRequest.id}/commenters`)
    ).body;
    expect(crCommenters.items.map((m: { user: { id: string } }) => m.user.id)).toEqual([f.fx.admin.user.id]);
  });

  it("refuses bad input, answers 401 without a token and 404 outside the caller's reach", async () => {
    const f = await commentFixture(server);
    const comment = (
      await server
        .as(f.editor.token)
        .post(f.spaceComments)
        .send({ body: { markdown: 'Hi' } })
        .expect(200)
    ).body;
    const replies = `${f.spaceComments}/${comment.id}/replies`;
    const commenters = `/v1/spaces/${f.space.id}/commenters`;
    expect(
      (await server.as(f.reader.token).get(replies).query({ limit: 1001 }).expect(400)).body.error.message,
    ).toMatch(/^limit: /);
    expect(
      (await server.as(f.reader.token).get(replies).query({ format: 'html' }).expect(400)).body.error.message,
    ).toMatch(/^format: /);
    expect(
      (await server.as(f.reader.token).get(commenters).query({ page: 'forged' }).expect(400)).body.error.message,
    ).toMatch(/^page: /);
    await request(server.app).get(replies).expect(401);
    await request(server.app).get(commenters).expect(401);
    // a comment of the change request is not one of the space's
    const crComment = (
      await server
        .as(f.editor.token)
        .post(f.crComments)
        .send({ body: { markdown: 'Hi' } })
        .expect(200)
    ).body;
    await server.as(f.reader.token).get(`${f.spaceComments}/${crComment.id}/replies`).expect(404);
    const stranger = await createOrg(server.ds);
    await server.as(stranger.admin.token).get(replies).expect(404);
    await server.as(stranger.admin.token).get(commenters).expect(404);
  });
});
