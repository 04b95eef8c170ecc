/** Comment threads on spaces and change requests: a discussion end to end, targets, outdated pages, deletion, counters. */
import { In } from 'typeorm';
import { purgeBatch } from '../../domain/spaces/purge';
import { Comment } from '../../entities/Comment';
import { CommentReaction } from '../../entities/CommentReaction';
import { CommentReply } from '../../entities/CommentReply';
import { inTransaction } from '../../platform/db/transactions';
import { createBlobStore } from '../../platform/storage';
import { CommentFixture, commentFixture } from '../support/comments';
import { writeHead } from '../support/heads';
import { useServer } from '../support/server';

const server = useServer();

const userOf = (actor: { user: { id: string } }) => expect.objectContaining({ object: 'user', id: actor.user.id });

describe('a threaded discussion on a page of a change request', () => {
  it('runs from the first comment to its resolution with every counter true', async () => {
    const f = await commentFixture(server);
    const { editor: alice, commenter: bob } = f;
    const crByNumber = `/v1/spaces/${f.space.id}/change-requests/${f.changeRequest.number}`;

    const posted = await server
      .as(alice.token)
      .post(f.crComments)
      .send({ page: f.guide, body: { markdown: 'Is **step 2** right?' } })
      .expect(200);
    const comment = posted.body;
    expect(comment).toEqual({
      object: 'comment',
      id: expect.any(String),
      postedBy: userOf(alice),
      postedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      reactions: [],
      replies: 0,
      repliers: [],
      body: { markdown: 'Is **step 2** right?' },
      target: {
        page: {
          id: f.guide,
          title: 'Guide',
          emoji: '📘',
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          path: 'guide',
          outdated: false,
        },
        changeRequest: f.changeRequest.id,
        space: f.space.id,
        revision: f.changeRequest.revisionId,
      },
      urls: {
        location: `${server.config.publicBaseUrl}/v1/spaces/${f.space.id}/change-requests/${f.changeRequest.id}/comments/${comment.id}`,
      },
      permissions: { view: true, edit: true, reply: true, delete: true },
      status: 'open',
      resolvedAt: null,
      resolvedBy: null,
    });
    // the change request path also takes the number
    const replyPath = `${crByNumber}/comments/${comment.id}/replies`;
    const bobReply = (
      await server
        .as(bob.token)
        .post(replyPath)
        .send({ body: { markdown: 'No, it needs sudo.' } })
        .expect(200)
    ).body;
    expect(bobReply).toEqual({
      object: 'comment-reply',
      id: expect.any(String),
      postedBy: userOf(bob),
      postedAt: expect.any(String),
      reactions: [],
      body: { markdown: 'No, it needs sudo.' },
      urls: {
        location: `${server.config.publicBaseUrl}/v1/spaces/${f.space.id}/change-requests/${f.changeRequest.id}/comments/${comment.id}/replies/${bobReply.id}`,
      },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    const aliceReply = (
      await server
        .as(alice.token)
        .post(replyPath)
        .send({ body: { markdown: 'Fixed, thanks.' } })
        .expect(200)
    ).body;
    // bob sees alice's reply as not his to edit or delete
    expect((await server.as(bob.token).get(`${replyPath}/${aliceReply.id}`).expect(200)).body.permissions).toEqual({
      view: true,
      edit: false,
      reply: true,
      delete: false,
    });

    await server
      .as(bob.token)
      .put(`${f.crComments}/${comment.id}`)
      .send({ addedReactions: ['👍'] })
      .expect(200);
    await server
      .as(alice.token)
      .put(`${f.crComments}/${comment.id}`)
      .send({ addedReactions: ['👍', '🎉'] })
      .expect(200);
    const reacted = (
      await server
        .as(bob.token)
        .put(`${replyPath}/${aliceReply.id}`)
        .send({ addedReactions: ['❤️'] })
        .expect(200)
    ).body;
    expect(reacted.reactions).toEqual([
      { emoji: '❤️', count: 1, users: [{ user: userOf(bob), reactedAt: expect.any(String) }] },
    ]);

    const read = (await server.as(bob.token).get(`${f.crComments}/${comment.id}`).expect(200)).body;
    expect(read.replies).toBe(2);
    expect(read.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(read.reactions).toEqual([
      {
        emoji: '👍',
        count: 2,
        users: expect.arrayContaining([
          { user: userOf(bob), reactedAt: expect.any(String) },
          { user: userOf(alice), reactedAt: expect.any(String) },
        ]),
      },
      { emoji: '🎉', count: 1, users: [{ user: userOf(alice), reactedAt: expect.any(String) }] },
    ]);

    // the replies read oldest first, a page at a time
    const first = (await server.as(bob.token).get(replyPath).query({ limit: 1 }).expect(200)).body;
    expect(first).toEqual({
      items: [expect.objectContaining({ id: bobReply.id })],
      count: 2,
      next: { page: expect.any(String) },
    });
    const second = (await server.as(bob.token).get(replyPath).query({ limit: 1, page: first.next.page }).expect(200))
      .body;
    expect(second).toEqual({
      items: [
        expect.objectContaining({ id: aliceReply.id, reactions: [expect.objectContaining({ emoji: '❤️', count: 1 })] }),
      ],
      count: 2,
    });

    // commenters: the members who wrote in the thread, a page at a time
    const commenters = `/v1/spaces/${f.space.id}/change-requests/${f.changeRequest.id}/commenters`;
    const c1 = (await server.as(f.reader.token).get(commenters).query({ limit: 1 }).expect(200)).body;
    const c2 = (await server.as(f.reader.token).get(commenters).query({ limit: 1, page: c1.next.page }).expect(200))
      .body;
    expect(c1.count).toBe(2);
    expect(c2.next).toBeUndefined();
    expect([...c1.items, ...c2.items].map((m: { id: string }) => m.id).sort()).toEqual(
      [alice.user.id, bob.user.id].sort(),
    );
    expect(c1.items[0]).toEqual(
      expect.objectContaining({
        object: 'member',
        role: expect.any(String),
        user: expect.objectContaining({ object: 'user' }),
        spaces: 1,
      }),
    );

    // counters: one open comment on the change request, none on the space (space comments count there)
    expect((await server.as(bob.token).get(crByNumber).expect(200)).body.comments).toBe(1);
    expect((await server.as(bob.token).get(`/v1/spaces/${f.space.id}`).expect(200)).body.comments).toBe(0);
    await server
      .as(bob.token)
      .post(f.spaceComments)
      .send({ body: { markdown: 'A space-wide remark' } })
      .expect(200);
    expect((await server.as(bob.token).get(`/v1/spaces/${f.space.id}`).expect(200)).body.comments).toBe(1);

    // bob resolves the thread through his reply (change request form), alice reopens, then resolves for good
    await server
      .as(bob.token)
      .put(`${replyPath}/${bobReply.id}`)
      .send({ resolved: true, body: { markdown: 'No, it needs sudo (done).' } })
      .expect(200);
    const resolved = (await server.as(alice.token).get(`${f.crComments}/${comment.id}`).expect(200)).body;
    expect(resolved).toEqual(
      expect.objectContaining({ status: 'resolved', resolvedAt: expect.any(String), resolvedBy: userOf(bob) }),
    );
    expect((await server.as(bob.token).get(crByNumber).expect(200)).body.comments).toBe(0);
    const reopened = (
      await server.as(alice.token).put(`${f.crComments}/${comment.id}`).send({ resolved: false }).expect(200)
    ).body;
    expect(reopened.status).toBe('open');
    expect(reopened).toMatchObject({ resolvedAt: null, resolvedBy: null });
    expect((await server.as(bob.token).get(crByNumber).expect(200)).body.comments).toBe(1);
    const final = (
      await server.as(alice.token).put(`${f.crComments}/${comment.id}`).send({ resolved: true }).expect(200)
    ).body;
    expect(final).toEqual(expect.objectContaining({ status: 'resolved', resolvedBy: userOf(alice), replies: 2 }));
    // bob edited his reply after alice replied: he is the most recently active replier
    expect(final.repliers).toEqual([
      { user: userOf(bob), count: 1, updatedAt: expect.any(String) },
      { user: userOf(alice), count: 1, updatedAt: aliceReply.postedAt },
    ]);
    const editedReply = (await server.as(bob.token).get(`${replyPath}/${bobReply.id}`).expect(200)).body;
    expect(editedReply).toEqual(
      expect.objectContaining({ body: { markdown: 'No, it needs sudo (done).' }, editedAt: expect.any(String) }),
    );
    expect((await server.as(bob.token).get(crByNumber).expect(200)).body.comments).toBe(0);
    expect((await server.as(bob.token).get(`/v1/spaces/${f.space.id}`).expect(200)).body.comments).toBe(1);
    // the list's status filter agrees with the counters
    expect((await server.as(bob.token).get(f.crComments).query({ status: 'resolved' }).expect(200)).body.count).toBe(1);
    expect((await server.as(bob.token).get(f.crComments).query({ status: 'open' }).expect(200)).body.count).toBe(0);
  });
});

describe('comment targets', () => {
  let f: CommentFixture;
  beforeAll(async () => {
    f = await commentFixture(server);
  });

  it('anchors to a page, a node of it (a heading anchor gets a preview) or a table cell', async () => {
    const post = (body: object) => server.as(f.commenter.token).post(f.spaceComments).send(body).expect(200);
    const onNode = (await post({ page: f.guide, node: 'configure-the-server', body: { markdown: 'Which port?' } }))
      .body;
    expect(onNode.target).toEqual({
      page: expect.objectContaining({ id: f.guide, title: 'Guide', path: 'guide', outdated: false }),
      node: { id: 'configure-the-server', preview: 'Configure the server' },
      space: f.space.id,
      revision: f.space.revisionId,
    });
    const onOtherNode = (await post({ page: f.guide, node: 'block-123', body: { markdown: 'Typo' } })).body;
    expect(onOtherNode.target.node).toEqual({ id: 'block-123' });
    const onCell = (await post({ page: f.faq, tableCell: { record: 'row-1', definition: 'col-2' }, body: {} })).body;
    expect(onCell.target).toEqual(
      expect.objectContaining({
        page: expect.objectContaining({ id: f.faq, title: 'FAQ' }),
        tableCell: { record: 'row-1', definition: 'col-2' },
      }),
    );
    expect(onCell.target.page).not.toHaveProperty('emoji');
    expect(onCell.body).toEqual({});
    const onSpace = (await post({ body: { markdown: 'General remark' } })).body;
    expect(onSpace.target).toEqual({
      space: f.space.id,
      revision: f.space.revisionId,
    });
  });

  it('refuses a page missing from the content, and a node or table cell without a page', async () => {
    const post = (path: string, body: object) => server.as(f.commenter.token).post(path).send(body).expect(400);
    expect((await post(f.spaceComments, { page: 'nope', body: {} })).body).toEqual({
      error: { code: 400, message: 'page: no such page in this content' },
    });
    expect((await post(f.spaceComments, { node: 'n1', body: {} })).body.error.message).toBe('node: requires page');
    expect(
      (await post(f.spaceComments, { tableCell: { record: 'r', definition: 'd' }, body: {} })).body.error.message,
    ).toBe('tableCell: requires page');
    // a page added in the change request exists there only
    const { result: draft } = await writeHead(
      server,
      { kind: 'change-request', changeRequestId: f.changeRequest.id },
      f.editor.user.id,
      (e) => e.createPage({ title: 'Draft' }),
    );
    expect((await post(f.spaceComments, { page: draft, body: {} })).body.error.message).toBe(
      'page: no such page in this content',
    );
    await server
      .as(f.commenter.token)
      .post(f.crComments)
      .send({ page: draft, body: { markdown: 'Nice draft' } })
      .expect(200);
  });

  it('turns outdated when the page changes in the content commented on, and keeps showing a deleted page', async () => {
    const g = await commentFixture(server);
    const head = { kind: 'change-request' as const, changeRequestId: g.changeRequest.id };
    const onGuide = (
      await server
        .as(g.commenter.token)
        .post(g.crComments)
        .send({ page: g.guide, body: { markdown: 'a' } })
        .expect(200)
    ).body;
    const onFaq = (
      await server
        .as(g.commenter.token)
        .post(g.crComments)
        .send({ page: g.faq, body: { markdown: 'b' } })
        .expect(200)
    ).body;
    const onSpaceGuide = (
      await server
        .as(g.commenter.token)
        .post(g.spaceComments)
        .send({ page: g.guide, body: { markdown: 'c' } })
        .expect(200)
    ).body;

    await writeHead(server, head, g.editor.user.id, (e) =>
      e.updatePage(g.guide, { markdown: '# Install\n\nRun it with sudo.' }),
    );
    const list = (await server.as(g.commenter.token).get(g.crComments).expect(200)).body.items;
    const outdated = Object.fromEntries(
      list.map((c: { id: string; target: { page: { outdated: boolean } } }) => [c.id, c.target.page.outdated]),
    );
    expect(outdated).toEqual({ [onGuide.id]: true, [onFaq.id]: false });
    // the space's own content did not change
    expect(
      (await server.as(g.commenter.token).get(`${g.spaceComments}/${onSpaceGuide.id}`).expect(200)).body.target.page
        .outdated,
    ).toBe(false);

    await writeHead(server, head, g.editor.user.id, (e) => e.deletePage(g.faq));
    const gone = (await server.as(g.commenter.token).get(`${g.crComments}/${onFaq.id}`).expect(200)).body;
    expect(gone.target.page).toEqual(expect.objectContaining({ id: g.faq, title: 'FAQ', path: 'faq', outdated: true }));
  });

  it('reads the body as a document with format=document', async () => {
    const c = (
      await server
        .as(f.commenter.token)
        .post(f.spaceComments)
        .send({ body: { markdown: 'Hello **world**' } })
        .expect(200)
    ).body;
    const doc = (
      await server.as(f.reader.token).get(`${f.spaceComments}/${c.id}`).query({ format: 'document' }).expect(200)
    ).body;
    expect(doc.body).toEqual({
      document: expect.objectContaining({
        object: 'document',
        nodes: [expect.objectContaining({ object: 'block', type: 'paragraph' })],
      }),
    });
    expect(
      (await server.as(f.reader.token).get(`${f.spaceComments}/${c.id}`).query({ format: 'html' }).expect(400)).body
        .error.message,
    ).toBe('format: must be one of markdown, document');
  });
});

describe('deleting', () => {
  it('removes a comment with its replies and every reaction', async () => {
    const f = await commentFixture(server);
    const c = (
      await server
        .as(f.commenter.token)
        .post(f.crComments)
        .send({ body: { markdown: 'x' } })
        .expect(200)
    ).body;
    const r = (
      await server
        .as(f.editor.token)
        .post(`${f.crComments}/${c.id}/replies`)
        .send({ body: { markdown: 'y' } })
        .expect(200)
    ).body;
    await server
      .as(f.editor.token)
      .put(`${f.crComments}/${c.id}`)
      .send({ addedReactions: ['👀'] })
      .expect(200);
    await server
      .as(f.commenter.token)
      .put(`${f.crComments}/${c.id}/replies/${r.id}`)
      .send({ addedReactions: ['👍'] })
      .expect(200);

    await server.as(f.commenter.token).delete(`${f.crComments}/${c.id}`).expect(204);
    await server.as(f.commenter.token).get(`${f.crComments}/${c.id}`).expect(404);
    await server.as(f.commenter.token).get(`${f.crComments}/${c.id}/replies/${r.id}`).expect(404);
    expect(await server.ds.manager.countBy(CommentReply, { id: r.id })).toBe(0);
    expect(await server.ds.manager.countBy(CommentReaction, { targetId: c.id })).toBe(0);
    expect(await server.ds.manager.countBy(CommentReaction, { targetId: r.id })).toBe(0);
    // deleting again: nothing there, still 204
    await server.as(f.commenter.token).delete(`${f.crComments}/${c.id}`).expect(204);
  });

  it('removes a reply, its reactions and its count', async () => {
    const f = await commentFixture(server);
    const c = (
      await server
        .as(f.commenter.token)
        .post(f.spaceComments)
        .send({ body: { markdown: 'x' } })
        .expect(200)
    ).body;
    const r = (
      await server
        .as(f.commenter.token)
        .post(`${f.spaceComments}/${c.id}/replies`)
        .send({ body: { markdown: 'y' } })
        .expect(200)
    ).body;
    await server
      .as(f.editor.token)
      .put(`${f.spaceComments}/${c.id}/replies/${r.id}`)
      .send({ addedReactions: ['👍'] })
      .expect(200);
    // racing deletes of the same reply drop the counter once
    await Promise.all(
      Array.from({ length: 4 }, () =>
        server.as(f.commenter.token).delete(`${f.spaceComments}/${c.id}/replies/${r.id}`).expect(204),
      ),
    );
    await server.as(f.commenter.token).get(`${f.spaceComments}/${c.id}/replies/${r.id}`).expect(404);
    expect((await server.as(f.commenter.token).get(`${f.spaceComments}/${c.id}`).expect(200)).body.replies).toBe(0);
    expect(await server.ds.manager.countBy(CommentReaction, { targetId: r.id })).toBe(0);
  });
});

describe('counters under concurrency', () => {
  it('counts 10 replies posted at once', async () => {
    const f = await commentFixture(server);
    const c = (
      await server
        .as(f.editor.token)
        .post(f.crComments)
        .send({ body: { markdown: 'Go' } })
        .expect(200)
    ).body;
    const posts = Array.from({ length: 10 }, (_, i) =>
      server
        .as(i % 2 ? f.editor.token : f.commenter.token)
        .post(`${f.crComments}/${c.id}/replies`)
        .send({ body: { markdown: `reply ${i}` } }),
    );
    for (const res of await Promise.all(posts)) expect(res.status).toBe(200);
    expect((await server.as(f.editor.token).get(`${f.crComments}/${c.id}`).expect(200)).body.replies).toBe(10);
    expect(
      (await server.as(f.editor.token).get(`${f.crComments}/${c.id}/replies`).query({ limit: 3 }).expect(200)).body
        .count,
    ).toBe(10);
  });
});

describe('purging a space', () => {
  it('removes its comments, replies and reactions in small batches, children first', async () => {
    const f = await commentFixture(server);
    for (const path of [f.spaceComments, f.crComments]) {
      const c = (
        await server
          .as(f.commenter.token)
          .post(path)
          .send({ body: { markdown: 'x' } })
          .expect(200)
      ).body;
      await server
        .as(f.commenter.token)
        .put(`${path}/${c.id}`)
        .send({ addedReactions: ['👍', '🎉', '👀'] })
        .expect(200);
      for (let i = 0; i < 3; i++) {
        const r = (
          await server
            .as(f.editor.token)
            .post(`${path}/${c.id}/replies`)
            .send({ body: { markdown: `r${i}` } })
            .expect(200)
        ).body;
        await server
          .as(f.commenter.token)
          .put(`${path}/${c.id}/replies/${r.id}`)
          .send({ addedReactions: ['👍', '❤️', '🚀'] })
          .expect(200);
      }
    }
    const db = server.ds.manager;
    const commentIds = (await db.findBy(Comment, { spaceId: f.space.id })).map((c) => c.id);
    const replyIds = (
      await db.createQueryBuilder(CommentReply, 'r').where('r.commentId IN (:...commentIds)', { commentIds }).getMany()
    ).map((r) => r.id);
    expect([commentIds.length, replyIds.length]).toEqual([2, 6]);
    expect(await db.countBy(CommentReaction, { targetId: In([...commentIds, ...replyIds]) })).toBe(24);
    await server.as(f.fx.admin.token).delete(`/v1/spaces/${f.space.id}`).expect(204);
    const blobs = createBlobStore(server.config);
    let state = 'more';
    for (let i = 0; i < 50 && state === 'more'; i++)
      state = (await inTransaction(server.ds, (tx) => purgeBatch(tx, blobs, f.space.id, 2, 0, null))).state;
    expect(state).toBe('purged');
    expect(await db.countBy(Comment, { id: In(commentIds) })).toBe(0);
    expect(await db.countBy(CommentReply, { id: In(replyIds) })).toBe(0);
    expect(await db.countBy(CommentReaction, { targetId: In([...commentIds, ...replyIds]) })).toBe(0);
  });
});
