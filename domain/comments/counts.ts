/**
 * Open-comment counters, always derived by COUNT over the comments table (never stored, so never
 * stale). A space's own count is in domain/spaces/counters.ts; comments on a change request count on it.
 */

import { Comment } from '../../entities/Comment';
import type { Db } from '../../platform/db/transactions';

type CountRow = { id: string; n: string | number };

export async function openChangeRequestCommentCounts(db: Db, changeRequestIds: string[]): Promise<Map<string, number>> {
  const counts = new Map(changeRequestIds.map((id) => [id, 0]));
  if (!changeRequestIds.length) return counts;
  const rows: CountRow[] = await db
    .createQueryBuilder(Comment, 'c')
    .select('c.changeRequestId', 'id')
    .addSelect('COUNT(*)', 'n')
    .where('c.changeRequestId IN (:...changeRequestIds)', { changeRequestIds })
    .andWhere("c.status = 'open'")
    .groupBy('c.changeRequestId')
    .getRawMany();
  for (const r of rows) counts.set(r.id, Number(r.n));
  return counts;
}
