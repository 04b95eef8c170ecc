/** The change requests of a space as a list query, and what each one shows beyond its row. */
import { In } from 'typeorm';
import { ChangeRequest, ChangeRequestStatus } from '../../entities/ChangeRequest';
import { Revision } from '../../entities/Revision';
import { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import { changeRequestCommentCounts } from './comment-counts';

export interface ChangeRequestFilter {
  status: ChangeRequestStatus;
  /** a user who created the change request or wrote one of its revisions (merging it is not writing it) */
  contributor?: string;
  /** the user who created the change request */
  creator?: string;
}

/** The times a list can be ordered by, newest first (GitBook's `orderBy`); without one, by number. */
export const CHANGE_REQUEST_ORDERS = ['updatedAt', 'createdAt'] as const;

export function changeRequestsOfSpaceQuery(db: Db, spaceId: string, filter: ChangeRequestFilter) {
  const qb = db
    .createQueryBuilder(ChangeRequest, 'cr')
    .where('cr.spaceId = :spaceId', { spaceId })
    .andWhere('cr.status = :status', { status: filter.status });
  if (filter.contributor !== undefined) {
    const wroteRevision = qb
      .subQuery()
      .select('1')
      .from(Revision, 'r')
      .where('r.changeRequestId = cr.id')
      .andWhere('r.createdById = :contributor')
      .andWhere("r.type <> 'merge'")
      .getQuery();
    qb.andWhere(`(cr.createdById = :contributor OR EXISTS ${wroteRevision})`, { contributor: filter.contributor });
  }
  if (filter.creator !== undefined) qb.andWhere('cr.createdById = :creator', { creator: filter.creator });
  return qb;
}

export interface ChangeRequestDetails {
  changeRequest: ChangeRequest;
  createdBy: User;
  /** open comments */
  comments: number;
}

/** Authors and comment counts for a page of change requests: one query per kind, not per item. */
export async function describeChangeRequests(db: Db, changeRequests: ChangeRequest[]): Promise<ChangeRequestDetails[]> {
  if (!changeRequests.length) return [];
  const userIds = [...new Set(changeRequests.map((cr) => cr.createdById))];
  const users = new Map((await db.findBy(User, { id: In(userIds) })).map((u) => [u.id, u]));
  const comments = await changeRequestCommentCounts(
    db,
    changeRequests.map((cr) => cr.id),
  );
  return changeRequests.map((cr) => ({
    changeRequest: cr,
    // users are never deleted, and the column references one
    createdBy: users.get(cr.createdById)!,
    comments: comments.get(cr.id) ?? 0,
  }));
}
