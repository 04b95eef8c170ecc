/** Who replied to each of many comments: one grouped query for the whole list. */
import { In } from 'typeorm';
import { CommentReply } from '../../entities/CommentReply';
import type { Db } from '../../platform/db/transactions';

export interface Replier {
  userId: string;
  /** replies this user posted in the thread */
  count: number;
  /** when their latest reply was posted or edited */
  updatedAt: Date;
}

/** Repliers of each comment, the most recently active first, keyed by comment id. */
export async function repliersOf(db: Db, commentIds: string[]): Promise<Map<string, Replier[]>> {
  const out = new Map<string, Replier[]>(commentIds.map((id) => [id, []]));
  if (!commentIds.length) return out;
  const rows: Array<{ commentId: string; userId: string; count: string | number; updatedAt: Date | string }> = await db
    .createQueryBuilder(CommentReply, 'r')
    .select('r.commentId', 'commentId')
    .addSelect('r.postedById', 'userId')
    .addSelect('COUNT(*)', 'count')
    .addSelect('MAX(COALESCE(r.editedAt, r.postedAt))', 'updatedAt')
    .where({ commentId: In(commentIds) })
    .groupBy('r.commentId')
    .addGroupBy('r.postedById')
    .orderBy('updatedAt', 'DESC')
    .addOrderBy('userId', 'ASC')
    .getRawMany();
  for (const row of rows)
    out.get(row.commentId)!.push({ userId: row.userId, count: Number(row.count), updatedAt: new Date(row.updatedAt) });
  return out;
}
