/** Emoji reactions on comments and replies: one per user and emoji, so adding twice counts once. */
import { In } from 'typeorm';
import { Comment } from '../../entities/Comment';
import { CommentReaction, ReactionTargetKind } from '../../entities/CommentReaction';
import { CommentReply } from '../../entities/CommentReply';
import type { Db } from '../../platform/db/transactions';
import { badRequest, notFound } from '../errors';

export interface ReactionChanges {
  addedReactions?: string[];
  removedReactions?: string[];
}

export function hasReactionChanges(changes: ReactionChanges): boolean {
  return !!(changes.addedReactions?.length || changes.removedReactions?.length);
}

/**
 * Adds and removes the caller's reactions. The target row is locked exclusively first: a reaction
 * never outlives a comment or reply deleted at the same time, and writers of one target's reactions
 * take turns. (With a share lock, an insert and a delete of the same reaction row deadlocked: each
 * waiting insert holds a share lock on the duplicate key the other needs to write.)
 */
export async function applyReactions(
  db: Db,
  kind: ReactionTargetKind,
  targetId: string,
  userId: string,
  changes: ReactionChanges,
): Promise<void> {
  const added = [...new Set(changes.addedReactions ?? [])];
  const removed = [...new Set(changes.removedReactions ?? [])];
  if (!added.length && !removed.length) return;
  const both = added.find((e) => removed.includes(e));
  if (both !== undefined) throw badRequest(`removedReactions: must not repeat an emoji of addedReactions (${both})`);
  const entity = kind === 'comment' ? Comment : CommentReply;
  const target = await db
    .createQueryBuilder(entity, 't')
    .setLock('pessimistic_write')
    .select('t.id')
    .where('t.id = :targetId', { targetId })
    .getOne();
  if (!target) throw notFound(kind === 'comment' ? 'comment' : 'comment reply');
  if (added.length) {
    const reactedAt = new Date();
    await db
      .createQueryBuilder()
      .insert()
      .into(CommentReaction)
      .values(added.map((emoji) => ({ targetKind: kind, targetId, emoji, userId, reactedAt })))
      .orIgnore()
      .execute();
  }
  if (removed.length) await db.delete(CommentReaction, { targetKind: kind, targetId, userId, emoji: In(removed) });
}

/** Reactions of many targets of one kind, oldest first, keyed by target id. */
export async function reactionsOf(
  db: Db,
  kind: ReactionTargetKind,
  targetIds: string[],
): Promise<Map<string, CommentReaction[]>> {
  const out = new Map<string, CommentReaction[]>(targetIds.map((id) => [id, []]));
  if (!targetIds.length) return out;
  const rows = await db.find(CommentReaction, {
    where: { targetKind: kind, targetId: In(targetIds) },
    order: { reactedAt: 'ASC', emoji: 'ASC', userId: 'ASC' },
  });
  for (const r of rows) out.get(r.targetId)!.push(r);
  return out;
}
