/** Replies in a comment's thread; the comment's `replies` counter moves with atomic increments only. */

import { Comment } from '../../entities/Comment';
import { CommentReaction } from '../../entities/CommentReaction';
import { CommentReply } from '../../entities/CommentReply';
import type { Db } from '../../platform/db/transactions';
import { notFound } from '../errors';
import { newId } from '../ids';

/** Bumps the counter first: the row lock orders this reply against a concurrent delete of the comment. */
export async function createReply(db: Db, commentId: string, markdown: string, userId: string): Promise<CommentReply> {
  const bumped = await db
    .createQueryBuilder()
    .update(Comment)
    .set({ replies: () => 'replies + 1' })
    .where('id = :commentId', { commentId })
    .execute();
  if (!bumped.affected) throw notFound('comment');
  const reply = db.create(CommentReply, {
    id: newId(),
    commentId,
    body: markdown,
    postedById: userId,
    postedAt: new Date(),
    editedAt: null,
  });
  await db.insert(CommentReply, reply);
  return reply;
}

export async function findReply(db: Db, commentId: string, replyId: string): Promise<CommentReply | null> {
  return db.findOneBy(CommentReply, { id: replyId, commentId });
}

export function repliesQuery(db: Db, commentId: string) {
  return db.createQueryBuilder(CommentReply, 'r').where('r.commentId = :commentId', { commentId });
}

export async function editReply(db: Db, reply: CommentReply, markdown: string): Promise<void> {
  if (markdown !== reply.body)
    await db.update(CommentReply, { id: reply.id }, { body: markdown, editedAt: new Date() });
}

/**
 * Locks the comment before the reply (the order every thread write takes), so the counter drops
 * exactly once per deleted reply, even when two deletes race.
 */
export async function deleteReply(db: Db, commentId: string, replyId: string): Promise<void> {
  const comment = await db
    .createQueryBuilder(Comment, 'c')
    .setLock('pessimistic_write')
    .where('c.id = :commentId', { commentId })
    .getOne();
  if (!comment) return;
  const deleted = await db.delete(CommentReply, { id: replyId, commentId });
  if (!deleted.affected) return;
  await db
    .createQueryBuilder()
    .update(Comment)
    .set({ replies: () => 'replies - 1' })
    .where('id = :commentId', { commentId })
    .execute();
  await db.delete(CommentReaction, { targetKind: 'reply', targetId: replyId });
}
