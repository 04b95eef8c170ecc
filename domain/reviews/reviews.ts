/**
 * Reviews of a change request. A review is made against the change request's head revision of the moment; it
 * counts towards the merge rules while it is its reviewer's latest (not `outdated`: no newer review of theirs and
 * no newer request for their review) and the change request's head has not moved since (`revision` equal to the
 * change request's). A later commit leaves earlier reviews standing but stale.
 */
import { ChangeRequest } from '../../entities/ChangeRequest';
import { ChangeRequestRequestedReviewer } from '../../entities/ChangeRequestRequestedReviewer';
import { ChangeRequestReview, ChangeRequestReviewStatus } from '../../entities/ChangeRequestReview';
import type { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { createComment } from '../comments/comments';
import { conflict, forbidden } from '../errors';
import { newId } from '../ids';

/** 409 for a change request whose reviews are over: merged or archived. */
export function assertUnderReview(cr: ChangeRequest): void {
  if (cr.status === 'merged' || cr.status === 'archived')
    throw conflict(`the change request is ${cr.status}: it takes no more reviews`);
}

/** The change request locked for the rest of the transaction, read again so its head and status are current. */
export async function lockChangeRequest(db: Db, changeRequestId: string): Promise<ChangeRequest> {
  return db
    .createQueryBuilder(ChangeRequest, 'cr')
    .setLock('pessimistic_write')
    .where('cr.id = :id', { id: changeRequestId })
    .getOneOrFail();
}

export interface NewReview {
  status: ChangeRequestReviewStatus;
  /** markdown of the comment posted with it; '' or absent: none */
  comment?: string;
}

/**
 * Records the reviewer's verdict on the change request's current revision. The author cannot approve their own
 * change request (403). A pending request for the reviewer's review is answered by it: the review keeps who asked.
 */
export async function submitReview(
  db: Db,
  space: Space,
  changeRequestId: string,
  input: NewReview,
  reviewerId: string,
): Promise<ChangeRequestReview> {
  const cr = await lockChangeRequest(db, changeRequestId);
  assertUnderReview(cr);
  if (input.status === 'approved' && cr.createdById === reviewerId)
    throw forbidden('the author of a change request cannot approve it');
  const request = await db.findOneBy(ChangeRequestRequestedReviewer, { changeRequestId: cr.id, userId: reviewerId });
  if (request) await db.delete(ChangeRequestRequestedReviewer, { changeRequestId: cr.id, userId: reviewerId });
  const comment = input.comment
    ? await createComment(db, { space, changeRequest: cr }, { body: { markdown: input.comment } }, reviewerId)
    : null;
  const now = new Date();
  const review = db.create(ChangeRequestReview, {
    id: newId(),
    spaceId: space.id,
    changeRequestId: cr.id,
    reviewerId,
    requestedById: request?.requestedById ?? null,
    status: input.status,
    revisionId: cr.revisionId,
    commentId: comment?.id ?? null,
    createdAt: now,
    updatedAt: now,
  });
  await db.insert(ChangeRequestReview, review);
  return review;
}

/** The reviews of a change request, oldest first (alias `rv`). */
export function reviewsQuery(db: Db, changeRequestId: string) {
  return db.createQueryBuilder(ChangeRequestReview, 'rv').where('rv.changeRequestId = :changeRequestId', {
    changeRequestId,
  });
}

export async function findReview(db: Db, changeRequestId: string, reviewId: string) {
  return db.findOneBy(ChangeRequestReview, { changeRequestId, id: reviewId });
}

/**
 * The ids of the change request's reviews that a newer event superseded (GitBook 0.202's `outdated`): a later review
 * by the same reviewer, or a request for their review made after it.
 */
export async function supersededReviews(db: Db, changeRequestId: string): Promise<Set<string>> {
  const reviews = await db.find(ChangeRequestReview, {
    select: { id: true, reviewerId: true, createdAt: true },
    where: { changeRequestId },
    order: { createdAt: 'ASC', id: 'ASC' },
  });
  const requests = await db.findBy(ChangeRequestRequestedReviewer, { changeRequestId });
  const requestedAt = new Map(requests.map((r) => [r.userId, r.createdAt.getTime()]));
  const latest = new Map<string, string>();
  for (const review of reviews) latest.set(review.reviewerId, review.id);
  const superseded = new Set<string>();
  for (const review of reviews) {
    const asked = requestedAt.get(review.reviewerId);
    if (latest.get(review.reviewerId) !== review.id || (asked !== undefined && asked > review.createdAt.getTime()))
      superseded.add(review.id);
  }
  return superseded;
}

/** The reviews that count towards the merge rules: each reviewer's latest, made on the change request's head. */
export async function countedReviews(db: Db, cr: ChangeRequest): Promise<ChangeRequestReview[]> {
  const superseded = await supersededReviews(db, cr.id);
  const reviews = await db.findBy(ChangeRequestReview, { changeRequestId: cr.id, revisionId: cr.revisionId });
  return reviews.filter((r) => !superseded.has(r.id));
}
