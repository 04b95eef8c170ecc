/** Comment threads: posting, the list query, editing, resolving and deleting (with their replies and reactions). */

import { In } from 'typeorm';
import { Comment, CommentStatus } from '../../entities/Comment';
import { CommentReaction } from '../../entities/CommentReaction';
import { CommentReply } from '../../entities/CommentReply';
import type { Db } from '../../platform/db/transactions';
import { newId } from '../ids';
import { applyCounterChange, commentStatusChange } from '../spaces/counter-changes';
import { CommentScope, scopeWhere } from './scope';
import { resolveTarget, TargetInput } from './targets';

/** A body is markdown, or empty (`{}` on the wire, stored as ''). */
export interface BodyInput {
  markdown?: string;
}

export interface NewComment extends TargetInput {
  body: BodyInput;
}

export async function createComment(db: Db, scope: CommentScope, input: NewComment, userId: string): Promise<Comment> {
  const target = await resolveTarget(db, scope, input, userId);
  const comment = db.create(Comment, {
    id: newId(),
    spaceId: scope.space.id,
    changeRequestId: scope.changeRequest?.id ?? null,
    ...target,
    body: input.body.markdown ?? '',
    postedById: userId,
    postedAt: new Date(),
    editedAt: null,
    status: 'open',
    resolvedAt: null,
    resolvedById: null,
    replies: 0,
  });
  await db.insert(Comment, comment);
  await applyCounterChange(db, comment.spaceId, commentStatusChange(!!comment.changeRequestId, null, comment.status));
  return comment;
}

export async function findComment(db: Db, scope: CommentScope, commentId: string): Promise<Comment | null> {
  return db.findOneBy(Comment, { id: commentId, ...scopeWhere(scope) });
}

export interface CommentFilters {
  status: 'all' | CommentStatus;
  pageId?: string;
  authorIds: string[];
}

export function commentsQuery(db: Db, scope: CommentScope, filters: CommentFilters) {
  const qb = db.createQueryBuilder(Comment, 'c').where('c.spaceId = :spaceId', { spaceId: scope.space.id });
  if (scope.changeRequest)
    qb.andWhere('c.changeRequestId = :changeRequestId', { changeRequestId: scope.changeRequest.id });
  else qb.andWhere('c.changeRequestId IS NULL');
  if (filters.status !== 'all') qb.andWhere('c.status = :status', { status: filters.status });
  if (filters.pageId !== undefined) qb.andWhere('c.pageId = :pageId', { pageId: filters.pageId });
  if (filters.authorIds.length) qb.andWhere('c.postedById IN (:...authorIds)', { authorIds: filters.authorIds });
  return qb;
}

export interface CommentPatch {
  body?: BodyInput;
  resolved?: boolean;
}

/** Applies a body edit and/or a resolution change; resolving an already resolved comment keeps its resolver. */
export async function updateComment(db: Db, comment: Comment, patch: CommentPatch, userId: string): Promise<void> {
  const changes: Partial<Comment> = {};
  const now = new Date();
  if (patch.body !== undefined && (patch.body.markdown ?? '') !== comment.body)
    Object.assign(changes, { body: patch.body.markdown ?? '', editedAt: now });
  if (patch.resolved === true && comment.status !== 'resolved')
    Object.assign(changes, { status: 'resolved', resolvedAt: now, resolvedById: userId });
  if (patch.resolved === false && comment.status !== 'open')
    Object.assign(changes, { status: 'open', resolvedAt: null, resolvedById: null });
  if (!Object.keys(changes).length) return;
  if (!changes.status) {
    await db.update(Comment, { id: comment.id }, changes);
    return;
  }
  // only from the status read: of two requests resolving one comment, one changes it, and counts
  const updated = await db.update(Comment, { id: comment.id, status: comment.status }, changes);
  if (updated.affected)
    await applyCounterChange(
      db,
      comment.spaceId,
      commentStatusChange(!!comment.changeRequestId, comment.status, changes.status),
    );
  else if (changes.body !== undefined)
    await db.update(Comment, { id: comment.id }, { body: changes.body, editedAt: changes.editedAt });
}

/**
 * Locks the comment row first, so a reply being posted concurrently (which bumps the counter on
 * that row) either committed already or finds the comment gone. Replies are
 * deleted before reactions for the same reason (a reaction locks its reply first).
 */
export async function deleteComment(db: Db, commentId: string): Promise<void> {
  const comment = await db
    .createQueryBuilder(Comment, 'c')
    .setLock('pessimistic_write')
    .where('c.id = :id', { id: commentId })
    .getOne();
  if (!comment) return;
  await db.delete(Comment, { id: commentId });
  await applyCounterChange(db, comment.spaceId, commentStatusChange(!!comment.changeRequestId, comment.status, null));
  const replyIds = (await db.find(CommentReply, { where: { commentId }, select: { id: true } })).map((r) => r.id);
  await db.delete(CommentReply, { commentId });
  for (let i = 0; i < replyIds.length; i += 500)
    await db.delete(CommentReaction, { targetKind: 'reply', targetId: In(replyIds.slice(i, i + 500)) });
  await db.delete(CommentReaction, { targetKind: 'comment', targetId: commentId });
}
