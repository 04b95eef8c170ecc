/**
 * Reviews asked of users on a change request. Only a member of the space's organization who holds `review` on the
 * space can be asked, and never the change request's author; asking again renews the request (its revision, time
 * and asker). A review by the user answers the request (reviews.ts).
 */
import { ChangeRequestRequestedReviewer } from '../../entities/ChangeRequestRequestedReviewer';
import type { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { permissionsOf } from '../access/authorize';
import { AccessContext } from '../access/context';
import { updateChangeRequest } from '../content/change-requests';
import { badRequest } from '../errors';
import { enabledMemberIds } from '../merge-rules/configuration';
import { assertUnderReview, lockChangeRequest } from './reviews';

/** 400 `users: …` naming the first user who cannot be asked to review the change request. */
async function checkReviewers(db: Db, space: Space, authorId: string, userIds: string[]): Promise<void> {
  const members = await enabledMemberIds(db, space.organizationId, userIds);
  for (const userId of userIds) {
    // a user outside the organization answers as an unknown one: the caller learns nothing about them
    if (!members.has(userId)) throw badRequest(`users: "${userId}" is not a member of this organization`);
    if (userId === authorId) throw badRequest(`users: "${userId}" is the author of the change request`);
    const permissions = await permissionsOf(new AccessContext(db, userId), { kind: 'space', space });
    if (!permissions.review) throw badRequest(`users: "${userId}" does not have the review permission on this space`);
  }
}

/** Asks each user for a review (and sets the change request's subject when one is given); returns the requests. */
export async function requestReviewers(
  db: Db,
  space: Space,
  changeRequestId: string,
  input: { users: string[]; subject?: string },
  requestedById: string,
): Promise<ChangeRequestRequestedReviewer[]> {
  const cr = await lockChangeRequest(db, changeRequestId);
  assertUnderReview(cr);
  const userIds = [...new Set(input.users)];
  await checkReviewers(db, space, cr.createdById, userIds);
  if (input.subject !== undefined) await updateChangeRequest(db, cr.id, { subject: input.subject });
  const createdAt = new Date();
  const requests = userIds.map((userId) =>
    db.create(ChangeRequestRequestedReviewer, {
      changeRequestId: cr.id,
      userId,
      requestedById,
      revisionId: cr.revisionId,
      createdAt,
    }),
  );
  if (requests.length)
    await db
      .createQueryBuilder()
      .insert()
      .into(ChangeRequestRequestedReviewer)
      .values(requests)
      .orUpdate(['requestedById', 'revisionId', 'createdAt'], ['changeRequestId', 'userId'])
      .execute();
  return requests;
}

/** Withdraws the request for the user's review; none is a no-op. */
export async function removeRequestedReviewer(db: Db, changeRequestId: string, userId: string): Promise<void> {
  await db.delete(ChangeRequestRequestedReviewer, { changeRequestId, userId });
}

/** The pending requests of a change request (alias `rr`). */
export function requestedReviewersQuery(db: Db, changeRequestId: string) {
  return db
    .createQueryBuilder(ChangeRequestRequestedReviewer, 'rr')
    .where('rr.changeRequestId = :changeRequestId', { changeRequestId });
}
