/** The organization members who posted a comment or a reply on a change request. */

import { Comment } from '../../entities/Comment';
import { CommentReply } from '../../entities/CommentReply';
import { Member } from '../../entities/Member';
import type { Db } from '../../platform/db/transactions';

export function commentersQuery(db: Db, organizationId: string, changeRequestId: string) {
  const qb = db.createQueryBuilder(Member, 'm').where('m.organizationId = :organizationId', { organizationId });
  const commented = qb
    .subQuery()
    .select('1')
    .from(Comment, 'c')
    .where('c.changeRequestId = :changeRequestId')
    .andWhere('c.postedById = m.userId')
    .getQuery();
  const replied = qb
    .subQuery()
    .select('1')
    .from(CommentReply, 'r')
    .innerJoin(Comment, 'rc', 'rc.id = r.commentId')
    .where('rc.changeRequestId = :changeRequestId')
    .andWhere('r.postedById = m.userId')
    .getQuery();
  return qb.andWhere(`(EXISTS ${commented} OR EXISTS ${replied})`, { changeRequestId });
}
