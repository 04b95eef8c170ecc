/** The organization members who posted a comment or a reply in a comment scope (a space's own threads, or a change request's). */

import { Comment } from '../../entities/Comment';
import { CommentReply } from '../../entities/CommentReply';
import { Member } from '../../entities/Member';
import type { Db } from '../../platform/db/transactions';
import type { CommentScope } from './scope';

export function commentersQuery(db: Db, scope: CommentScope) {
  const qb = db
    .createQueryBuilder(Member, 'm')
    .where('m.organizationId = :organizationId', { organizationId: scope.space.organizationId });
  // the space's own threads are those of no change request
  const inScope = (alias: string) =>
    `${alias}.spaceId = :spaceId AND ${
      scope.changeRequest ? `${alias}.changeRequestId = :changeRequestId` : `${alias}.changeRequestId IS NULL`
    }`;
  const commented = qb
    .subQuery()
    .select('1')
    .from(Comment, 'c')
    .where(inScope('c'))
    .andWhere('c.postedById = m.userId')
    .getQuery();
  const replied = qb
    .subQuery()
    .select('1')
    .from(CommentReply, 'r')
    .innerJoin(Comment, 'rc', 'rc.id = r.commentId')
    .where(inScope('rc'))
    .andWhere('r.postedById = m.userId')
    .getQuery();
  return qb.andWhere(`(EXISTS ${commented} OR EXISTS ${replied})`, {
    spaceId: scope.space.id,
    ...(scope.changeRequest ? { changeRequestId: scope.changeRequest.id } : {}),
  });
}
