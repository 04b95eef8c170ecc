/** Comments: list filters and pagination, reaction semantics, who may do what, and refused input. */
import request from 'supertest';
import { Comment } from '../../entities/Comment';
import { addMember, createOrg } from '../factories';
import { CommentFixture, commentFixture } from '../support/comments';
import { useServer } from '../support/server';

const server = useServer();

describe('listing comments', () => {
  let f: CommentFixture;
  let ids: { old: string; mid: string; recent: string };
  beforeAll(async () => {
    f = await commentFixture(server);
    const post = async (token: string, body: object, at: string) => {
      const id = (await server.as(token).post(f.crComments).send(body).expect(200)).body.id;
      await server.ds.manager.update(Comment, { id }, { postedAt: new Date(at) });
      return id;
    };
    ids = {
      old: await post(f.editor.token, { page: f.guide, body: { markdown: 'old' } }, '2024-01-01T00:00:00.000Z'),
      mid: await post(f.commenter.token, { page: f.faq, body: { markdown: 'mid' } }, '2024-02-01T00:00:00.000Z'),
      recent: await post(
        f.commenter.token,
        { page: f.guide, body: { markdown: 'recent' } },
        '2024-03-01T00:00:00.000Z',
      ),
    };
    await server.as(f.editor.token).put(`${f.crComments}/${ids.mid}`).send({ resolved: true }).expect(200);
    // a space comment is not in the change request's list
    await server
      .as(f.editor.token)
      .post(f.spaceComments)
      .send({ body: { markdown: 'elsewhere' } })
      .expect(200);
  });

  const list = async (query: Record<string, string | number | string[]>) => {
    const res = await server.as(f.reader.token).get(f.crComments).query(query).expect(200);
    return res.body.items.map((c: { id: string }) => c.id);
  };

  it('orders newest first by default, oldest first with order=asc', async () => {
    expect(await list({})).toEqual([ids.recent, ids.mid, ids.old]);
    expect(await list({ order: 'asc' })).toEqual([ids.old, ids.mid, ids.recent]);
  });

  it('filters by status, page and authors (repeated or comma separated)', async () => {
    expect(await list({ status: 'all' })).toHaveLength(3);
    expect(await list({ status: 'open' })).toEqual([ids.recent, ids.old]);
    expect(await list({ status: 'resolved' })).toEqual([ids.mid]);
    expect(await list({ targetPage: f.guide })).toEqual([ids.recent, ids.old]);
    expect(await list({ authors: f.editor.user.id })).toEqual([ids.old]);
    expect(await list({ authors: `${f.editor.user.id},${f.commenter.user.id}` })).toEqual([
      ids.recent,
      ids.mid,
      ids.old,
    ]);
    expect(await list({ authors: [f.commenter.user.id, f.reader.user.id] })).toEqual([ids.recent, ids.mid]);
    expect(await list({ targetPage: f.faq, status: 'open' })).toEqual([]);
  });

  it('pages with a cursor bound to the list and its filters', async () => {
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = await server
        .as(f.reader.token)
        .get(f.crComments)
        .query({ limit: 1, ...(page ? { page } : {}) })
        .expect(200);
      expect(res.body.count).toBe(3);
      seen.push(...res.body.items.map((c: { id: string }) => c.id));
      page = res.body.next?.page;
    } while (page);
    expect(seen).toEqual([ids.recent, ids.mid, ids.old]);

    const first = (await server.as(f.reader.token).get(f.crComments).query({ limit: 1 }).expect(200)).body;
    const forged = `${first.next.page.split('.')[0]}.AAAA`;
    expect(
      (await server.as(f.reader.token).get(f.crComments).query({ limit: 1, page: forged }).expect(400)).body,
    ).toEqual({ error: { code: 400, message: 'page: invalid or expired cursor' } });
    // a cursor of another filter, or of the space's own list, is refused
    await server
      .as(f.reader.token)
      .get(f.crComments)
      .query({ limit: 1, page: first.next.page, status: 'open' })
      .expect(400);
    await server.as(f.reader.token).get(f.spaceComments).query({ limit: 1, page: first.next.page }).expect(400);
  });

  it('refuses bad query values', async () => {
    const bad = async (query: Record<string, string>, message: string) =>
      expect((await server.as(f.reader.token).get(f.crComments).query(query).expect(400)).body.error.message).toBe(
        message,
      );
    await bad({ status: 'closed' }, 'status: must be one of all, open, resolved');
    await bad({ order: 'up' }, 'order: must be one of asc, desc');
    await bad({ limit: '1001' }, 'limit: must be at most 1000');
  });
});

describe('reactions', () => {
  it('count once per user and emoji; removing one never added is harmless', async () => {
    const f = await commentFixture(server);
    const c = (
      await server
        .as(f.editor.token)
        .post(f.spaceComments)
        .send({ body: { markdown: 'React' } })
        .expect(200)
    ).body;
    const put = (token: string, body: object) =>
      server.as(token).put(`${f.spaceComments}/${c.id}`).send(body).expect(200);
    await put(f.commenter.token, { addedReactions: ['👍', '👍'] });
    let after = (await put(f.commenter.token, { addedReactions: ['👍', '🎉'] })).body;
    expect(after.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
      ['👍', 1],
      ['🎉', 1],
    ]);
    after = (await put(f.editor.token, { addedReactions: [':shipit:', '👍'], removedReactions: ['🚀'] })).body;
    expect(after.reactions.map((r: { emoji: string; count: number }) => [r.emoji, r.count])).toEqual([
      ['👍', 2],
      ['🎉', 1],
      [':shipit:', 1],
    ]);
    after = (await put(f.commenter.token, { removedReactions: ['👍', '🎉', '❤️'] })).body;
    // left: the editor's two, added in one request (same time, so in emoji order)
    expect(after.reactions).toEqual([
      {
        emoji: ':shipit:',
        count: 1,
        users: [{ user: expect.objectContaining({ id: f.editor.user.id }), reactedAt: expect.any(String) }],
      },
      {
        emoji: '👍',
        count: 1,
        users: [{ user: expect.objectContaining({ id: f.editor.user.id }), reactedAt: expect.any(String) }],
      },
    ]);
  });

  it('refuses malformed reaction lists', async () => {
    const f = await commentFixture(server);
    const c = (await server.as(f.editor.token).post(f.spaceComments).send({ body: {} }).expect(200)).body;
    const bad = async (body: object, message: string) =>
      expect((await server.as(f.editor.token).put(`${f.spaceComments}/${c.id}`).send(body).expect(400)).body).toEqual({
        error: { code: 400, message },
      });
    await bad({ addedReactions: '👍' }, 'addedReactions: must be an array, not string');
    await bad({ addedReactions: [1] }, 'addedReactions.0: must be a string, not number');
    await bad({ addedReactions: [''] }, 'addedReactions.0: must be at least 1 character');
    await bad({ removedReactions: ['x'.repeat(65)] }, 'removedReactions.0: must be at most 64 characters');
    await bad({ addedReactions: ['thumbs up'] }, 'addedReactions.0: has an invalid format');
    await bad(
      { addedReactions: Array.from({ length: 21 }, (_, i) => `e${i}`) },
      'addedReactions: must have at most 20 items',
    );
    await bad(
      { addedReactions: ['👍'], removedReactions: ['👍'] },
      'removedReactions: must not repeat an emoji of addedReactions (👍)',
    );
    expect((await server.as(f.editor.token).get(`${f.spaceComments}/${c.id}`).expect(200)).body.reactions).toEqual([]);
  });
});

describe('permissions', () => {
  let f: CommentFixture;
  let byEditor: { id: string };
  beforeAll(async () => {
    f = await commentFixture(server);
    byEditor = (
      await server
        .as(f.editor.token)
        .post(f.crComments)
        .send({ body: { markdown: 'Mine' } })
        .expect(200)
    ).body;
  });

  it('lets a read member see but not discuss', async () => {
    const { reader } = f;
    const seen = (await server.as(reader.token).get(`${f.crComments}/${byEditor.id}`).expect(200)).body;
    expect(seen.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    const forbidden = async (req: request.Test) => expect((await req.expect(403)).body.error.code).toBe(403);
    await forbidden(
      server
        .as(reader.token)
        .post(f.crComments)
        .send({ body: { markdown: 'hi' } }),
    );
    await forbidden(
      server
        .as(reader.token)
        .post(`${f.crComments}/${byEditor.id}/replies`)
        .send({ body: { markdown: 'hi' } }),
    );
    await forbidden(
      server
        .as(reader.token)
        .put(`${f.crComments}/${byEditor.id}`)
        .send({ addedReactions: ['👍'] }),
    );
    await forbidden(server.as(reader.token).put(`${f.crComments}/${byEditor.id}`).send({ resolved: true }));
    await forbidden(server.as(reader.token).delete(`${f.crComments}/${byEditor.id}`));
    // not even a comment that does not exist: they could not have written it
    await forbidden(server.as(reader.token).delete(`${f.crComments}/nothing-here`));
    await server.as(reader.token).get(f.crComments).expect(200);
  });

  it("lets a comment member discuss, but only the author rewrites a comment; an admin deletes anyone's", async () => {
    const { commenter, fx } = f;
    const own = (
      await server
        .as(commenter.token)
        .post(f.crComments)
        .send({ body: { markdown: 'Mine too' } })
        .expect(200)
    ).body;
    expect(own.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
    const edited = (
      await server
        .as(commenter.token)
        .put(`${f.crComments}/${own.id}`)
        .send({ body: { markdown: 'Mine, edited' } })
        .expect(200)
    ).body;
    expect(edited).toEqual(
      expect.objectContaining({ body: { markdown: 'Mine, edited' }, editedAt: expect.any(String) }),
    );
    // an empty body is allowed
    expect(
      (await server.as(commenter.token).put(`${f.crComments}/${own.id}`).send({ body: {} }).expect(200)).body.body,
    ).toEqual({});

    expect(
      (
        await server
          .as(commenter.token)
          .put(`${f.crComments}/${byEditor.id}`)
          .send({ body: { markdown: 'hijack' } })
          .expect(403)
      ).body.error.message,
    ).toBe('you need the "edit" permission on this comment');
    await server
      .as(fx.admin.token)
      .put(`${f.crComments}/${byEditor.id}`)
      .send({ body: { markdown: 'admin rewrite' } })
      .expect(403);
    // discussing someone else's comment is fine
    await server
      .as(commenter.token)
      .put(`${f.crComments}/${byEditor.id}`)
      .send({ resolved: true, addedReactions: ['✅'] })
      .expect(200);
    const reply = (
      await server
        .as(commenter.token)
        .post(`${f.crComments}/${byEditor.id}/replies`)
        .send({ body: { markdown: 'ok' } })
        .expect(200)
    ).body;
    await server
      .as(f.editor.token)
      .put(`${f.crComments}/${byEditor.id}/replies/${reply.id}`)
      .send({ body: { markdown: 'not yours' } })
      .expect(403);
    await server.as(f.editor.token).delete(`${f.crComments}/${byEditor.id}/replies/${reply.id}`).expect(403);
    await server.as(commenter.token).delete(`${f.crComments}/${byEditor.id}`).expect(403);

    const asAdmin = (await server.as(fx.admin.token).get(`${f.crComments}/${own.id}`).expect(200)).body;
    expect(asAdmin.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    await server.as(fx.admin.token).delete(`${f.crComments}/${byEditor.id}/replies/${reply.id}`).expect(204);
    await server.as(fx.admin.token).delete(`${f.crComments}/${own.id}`).expect(204);
    await server.as(commenter.token).get(`${f.crComments}/${own.id}`).expect(404);
  });

  it('hides everything from another organization and from a caller without a valid token', async () => {
    const other = await createOrg(server.ds);
    const stranger = await addMember(server.ds, other.org, 'admin');
    const paths = [
      f.crComments,
      f.spaceComments,
      `${f.crComments}/${byEditor.id}`,
      `/v1/spaces/${f.space.id}/change-requests/${f.changeRequest.id}/commenters`,
    ];
    for (const path of paths) expect((await server.as(stranger.token).get(path).expect(404)).body.error.code).toBe(404);
    await server
      .as(stranger.token)
      .post(f.crComments)
      .send({ body: { markdown: 'x' } })
      .expect(404);
    await server.as(stranger.token).delete(`${f.crComments}/${byEditor.id}`).expect(204); // unseen: 204, nothing changed
    await server
      .as(stranger.token)
      .post(`${f.crComments}/${byEditor.id}/replies`)
      .send({ body: { markdown: 'x' } })
      .expect(404);
    await request(server.app).get(f.crComments).expect(401);
    await server.as('garbage').post(f.spaceComments).send({ body: {} }).expect(401);
    // a comment of the space is not reachable through a change request, nor the other way round
    await server.as(f.reader.token).get(`${f.spaceComments}/${byEditor.id}`).expect(404);
    // whether a change request exists is not revealed to someone who cannot see the space
    const missing = await server
      .as(stranger.token)
      .get(`/v1/spaces/${f.space.id}/change-requests/999999/comments`)
      .expect(404);
    const existing = await server.as(stranger.token).get(f.crComments).expect(404);
    expect(missing.body).toEqual(existing.body);
  });

  it('deleting a reply that does not exist, even under a missing comment, is a 204 for commenters only', async () => {
    await server.as(f.editor.token).delete(`${f.crComments}/no-such-comment/replies/no-such-reply`).expect(204);
    await server.as(f.editor.token).delete(`${f.crComments}/${byEditor.id}/replies/no-such-reply`).expect(204);
    await server.as(f.reader.token).delete(`${f.crComments}/no-such-comment/replies/no-such-reply`).expect(403);
  });
});

describe('refused input', () => {
  let f: CommentFixture;
  let c: { id: string };
  beforeAll(async () => {
    f = await commentFixture(server);
    c = (
      await server
        .as(f.editor.token)
        .post(f.crComments)
        .send({ body: { markdown: 'x' } })
        .expect(200)
    ).body;
  });

  const expect400 = async (req: request.Test, message: string) =>
    expect((await req.expect(400)).body).toEqual({ error: { code: 400, message } });

  it('on create', async () => {
    const post = (body: object) => server.as(f.editor.token).post(f.crComments).send(body);
    await expect400(post({}), 'body: is required');
    await expect400(post({ body: { markdown: 'x'.repeat(65537) } }), 'body.markdown: must be at most 65536 characters');
    await expect400(post({ body: { markdown: '' } }), 'body.markdown: must be at least 1 character');
    await expect400(
      post({ body: { markdown: 'x', html: '<p>' } }),
      'body.html: unknown field; accepted: markdown, document',
    );
    await expect400(post({ body: 'x' }), 'body: must be an object, not string');
    await expect400(post({ body: {}, page: 5 }), 'page: must be a string, not number');
    await expect400(post({ body: {}, page: f.guide, node: 'n'.repeat(129) }), 'node: must be at most 128 characters');
    await expect400(post({ body: {}, page: f.guide, tableCell: { record: 'r' } }), 'tableCell.definition: is required');
    await expect400(post({ body: {}, status: 'open' }), 'status: unknown field; accepted: page, node, tableCell, body');
    await expect400(post({ body: {}, replies: 3 }), 'replies: unknown field; accepted: page, node, tableCell, body');
  });

  it('in a document body', async () => {
    const post = (document: object) => server.as(f.editor.token).post(f.crComments).send({ body: { document } });
    const doc = (nodes: unknown[]) => ({ object: 'document', data: {}, nodes });
    const paragraph = (text: string) => ({
      object: 'block',
      type: 'paragraph',
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    });
    await expect400(post({ object: 'page', nodes: [] }), 'body.document.object: must be "document"');
    await expect400(
      post({ ...doc([]), extra: 1 }),
      'body.document.extra: unknown field; accepted: object, data, nodes',
    );
    await expect400(
      post(doc([paragraph('ok'), { object: 'paragraph' }])),
      'body.document.nodes.1: must be a node: an object whose `object` is block, inline or text',
    );
    await expect400(
      post(doc([{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ text: 5 }] }] }])),
      'body.document.nodes.0.nodes.0.leaves: must be a list of leaves {text, marks}',
    );
    await expect400(post(doc([{ object: 'block', nodes: [] }])), 'body.document.nodes.0.type: must be a string');
    await expect400(post(doc([paragraph('x'.repeat(65537))])), 'body.document: must be at most 65536 characters');
    await expect400(post(doc([paragraph('nul \u0000 here')])), 'body.document: must not contain control characters');
    // nesting: at most 64 levels; much deeper is still a 400, never a crash
    const nested = (depth: number) => {
      let node: object = paragraph('deep');
      for (let i = 1; i < depth; i++) node = { object: 'block', type: 'blockquote', nodes: [node] };
      return doc([node]);
    };
    expect((await post(nested(63)).expect(200)).body.body.markdown).toBe(`${'> '.repeat(62)}deep`); // with its text node, 64 levels
    expect((await post(nested(64)).expect(400)).body.error.message).toMatch(
      /^body\.document\.nodes\.0(\.nodes\.0)+: must be nested at most 64 levels deep$/,
    );
    const deep = await server
      .as(f.editor.token)
      .post(f.crComments)
      .set('Content-Type', 'application/json')
      .send(
        `{"body":{"document":{"object":"document","data":{},"nodes":[${'{"object":"block","type":"quote","nodes":['.repeat(20000)}${']}'.repeat(20000)}]}}}`,
      );
    expect(deep.status).toBe(400);
  });

  it('on update and replies', async () => {
    await expect400(
      server.as(f.editor.token).put(`${f.crComments}/${c.id}`).send({ resolved: 'yes' }),
      'resolved: must be a boolean, not string',
    );
    await expect400(
      server.as(f.editor.token).put(`${f.crComments}/${c.id}`).send({ status: 'resolved' }),
      'status: unknown field; accepted: resolved, body, addedReactions, removedReactions',
    );
    const replies = `${f.crComments}/${c.id}/replies`;
    await expect400(
      server
        .as(f.editor.token)
        .post(replies)
        .send({ body: { markdown: 'x', document: { object: 'document', data: {}, nodes: [] } } }),
      'body: must have markdown or document, not both',
    );
    await expect400(server.as(f.editor.token).post(replies).send({}), 'body: is required');
    const reply = (
      await server
        .as(f.editor.token)
        .post(replies)
        .send({ body: { markdown: 'r' } })
        .expect(200)
    ).body;
    await expect400(
      server
        .as(f.editor.token)
        .put(`${replies}/${reply.id}`)
        .send({ body: { markdown: 'x'.repeat(65537) } }),
      'body.markdown: must be at most 65536 characters',
    );
    // only the change request form of a reply update resolves the thread
    const spaceComment = (await server.as(f.editor.token).post(f.spaceComments).send({ body: {} }).expect(200)).body;
    const spaceReply = (
      await server
        .as(f.editor.token)
        .post(`${f.spaceComments}/${spaceComment.id}/replies`)
        .send({ body: { markdown: 'r' } })
        .expect(200)
    ).body;
    await expect400(
      server
        .as(f.editor.token)
        .put(`${f.spaceComments}/${spaceComment.id}/replies/${spaceReply.id}`)
        .send({ resolved: true }),
      'resolved: unknown field; accepted: body, addedReactions, removedReactions',
    );
    await server.as(f.editor.token).get(`${replies}/nope`).expect(404);
    await server
      .as(f.editor.token)
      .post(`${f.crComments}/nope/replies`)
      .send({ body: { markdown: 'r' } })
      .expect(404);
  });
});
