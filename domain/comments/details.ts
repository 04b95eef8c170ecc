/**
 * What comments and replies show beyond their rows — users, reactions, page targets — gathered
 * for a whole page of them with one query per kind, never one per item.
 */
import { In } from 'typeorm';
import type { Comment } from '../../entities/Comment';
import type { CommentReaction } from '../../entities/CommentReaction';
import type { CommentReply } from '../../entities/CommentReply';
import { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import { reactionsOf } from './reactions';
import { repliersOf } from './repliers';
import type { CommentScope } from './scope';
import { describePageTargets, PageTarget } from './targets';

export interface ReactionGroup {
  emoji: string;
  users: Array<{ user: User; reactedAt: Date }>;
}

export interface CommentDetails {
  comment: Comment;
  postedBy: User;
  resolvedBy: User | null;
  reactions: ReactionGroup[];
  page: PageTarget | null;
  /** who replied, the most recently active first */
  repliers: Array<{ user: User; count: number; updatedAt: Date }>;
}

export interface ReplyDetails {
  reply: CommentReply;
  postedBy: User;
  reactions: ReactionGroup[];
}

/** The users the ids name (nulls and repeats skipped), by id. */
export async function usersById(db: Db, ids: Array<string | null>): Promise<Map<string, User>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  return new Map((wanted.length ? await db.findBy(User, { id: In(wanted) }) : []).map((u) => [u.id, u]));
}

function userOf(users: Map<string, User>, id: string): User {
  const user = users.get(id);
  if (!user) throw new Error(`user ${id} of a comment has no row`);
  return user;
}

/** Groups reactions by emoji, in the order each emoji was first used. */
function groupReactions(rows: CommentReaction[], users: Map<string, User>): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of rows) {
    const group = groups.get(r.emoji) ?? { emoji: r.emoji, users: [] };
    group.users.push({ user: userOf(users, r.userId), reactedAt: r.reactedAt });
    groups.set(r.emoji, group);
  }
  return [...groups.values()];
}

export async function describeComments(db: Db, scope: CommentScope, comments: Comment[]): Promise<CommentDetails[]> {
  if (!comments.length) return [];
  const reactions = await reactionsOf(
    db,
    'comment',
    comments.map((c) => c.id),
  );
  const repliers = await repliersOf(
    db,
    comments.map((c) => c.id),
  );
  const users = await usersById(db, [
    ...comments.flatMap((c) => [c.postedById, c.resolvedById]),
    ...[...reactions.values()].flat().map((r) => r.userId),
    ...[...repliers.values()].flat().map((r) => r.userId),
  ]);
  const pages = await describePageTargets(db, scope, comments);
  return comments.map((comment) => ({
    comment,
    postedBy: userOf(users, comment.postedById),
    resolvedBy: comment.resolvedById ? userOf(users, comment.resolvedById) : null,
    reactions: groupReactions(reactions.get(comment.id)!, users),
    page: pages.get(comment.id) ?? null,
    repliers: repliers
      .get(comment.id)!
      .map((r) => ({ user: userOf(users, r.userId), count: r.count, updatedAt: r.updatedAt })),
  }));
}

export async function describeReplies(db: Db, replies: CommentReply[]): Promise<ReplyDetails[]> {
  if (!replies.length) return [];
  const reactions = await reactionsOf(
    db,
    'reply',
    replies.map((r) => r.id),
  );
  const users = await usersById(db, [
    ...replies.map((r) => r.postedById),
    ...[...reactions.values()].flat().map((r) => r.userId),
  ]);
  return replies.map((reply) => ({
    reply,
    postedBy: userOf(users, reply.postedById),
    reactions: groupReactions(reactions.get(reply.id)!, users),
  }));
}
