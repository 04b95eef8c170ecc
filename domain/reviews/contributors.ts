/**
 * The contributors of a change request (GitBook's `UserContributor`): the users who wrote its revisions, with how
 * many and when the last; a merge revision is the space's, not a contribution. Most recent first.
 */
import { Revision } from '../../entities/Revision';
import type { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import { usersById } from '../comments/details';

export interface Contributor {
  user: User;
  count: number;
  updatedAt: Date;
}

export async function changeRequestContributors(db: Db, changeRequestId: string): Promise<Contributor[]> {
  const rows = await db
    .createQueryBuilder(Revision, 'r')
    .select('r.createdById', 'userId')
    .addSelect('COUNT(*)', 'count')
    .addSelect('MAX(r.createdAt)', 'updatedAt')
    .where('r.changeRequestId = :changeRequestId', { changeRequestId })
    .andWhere("r.type <> 'merge'")
    .andWhere('r.createdById IS NOT NULL')
    .groupBy('r.createdById')
    .orderBy('updatedAt', 'DESC')
    .addOrderBy('userId', 'ASC')
    .getRawMany<{ userId: string; count: string | number; updatedAt: Date | string }>();
  if (!rows.length) return [];
  const users = await usersById(
    db,
    rows.map((r) => r.userId),
  );
  return rows.map((r) => ({
    // users are never deleted, and the column references one
    user: users.get(r.userId)!,
    count: Number(r.count),
    updatedAt: new Date(r.updatedAt),
  }));
}
