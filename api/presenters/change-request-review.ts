/** GitBook's ChangeRequestReview, ChangeRequestRequestedReviewer and UserContributor. */
import { z } from 'zod';
import type { ChangeRequestRequestedReviewer } from '../../entities/ChangeRequestRequestedReviewer';
import type { ChangeRequestReview } from '../../entities/ChangeRequestReview';
import type { User } from '../../entities/User';
import type { Presented } from '../../platform/wire/to-wire';
import { commentSchema } from './comment';
import { iso, timestamp } from './common';
import type { Urls } from './urls';
import { presentUser, userSchema } from './user';

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;

export const reviewSchema = z
  .object({
    object: z.literal('change-request-review').openapi({ description: 'always `change-request-review`' }),
    id: z.string().openapi({ description: 'id of the review' }),
    revision: z.string().openapi({
      description:
        "the change request's revision the review was made against: it counts towards the merge rules only while it equals the change request's `revision`",
    }),
    reviewer: userSchema,
    requestedBy: userSchema
      .optional()
      .openapi({ description: 'who had asked for this review; absent when the review was not requested' }),
    status: z.enum(REVIEW_STATUSES).openapi({ description: '`approved` or `changes-requested`' }),
    outdated: z.boolean().openapi({
      description:
        'GitBook 0.202: superseded by a newer review of the same reviewer, or by a newer request for their review',
    }),
    comment: commentSchema.optional().openapi({ description: 'the comment posted with the review, if any' }),
    createdAt: timestamp.openapi({ description: 'when the review was submitted (ISO 8601 date-time)' }),
    updatedAt: timestamp.openapi({ description: 'when it last changed (ISO 8601 date-time)' }),
    urls: z
      .object({ location: z.string().openapi({ description: 'API URL of the review' }) })
      .openapi({ description: 'GitBook 0.202: where the review is found' }),
  })
  .openapi('ChangeRequestReview', { description: "A reviewer's verdict on a change request, at one revision" });

export const requestedReviewerSchema = z
  .object({
    object: z
      .literal('change-request-requested-reviewer')
      .openapi({ description: 'always `change-request-requested-reviewer`' }),
    revision: z.string().openapi({ description: "the change request's revision when the review was asked" }),
    requestedBy: userSchema,
    createdAt: timestamp.openapi({ description: 'when the review was asked (ISO 8601 date-time)' }),
    kind: z.literal('user').openapi({ description: 'always `user`: reviews are asked of users' }),
    user: userSchema,
  })
  .openapi('ChangeRequestRequestedReviewer', { description: 'A review asked of a user on a change request' });

export const requestedReviewersResultSchema = z
  .object({ users: z.array(requestedReviewerSchema).openapi({ description: 'the requests made' }) })
  .openapi('ChangeRequestReviewersRequested', { description: 'The reviews asked by one request' });

export const contributorSchema = z
  .object({
    updatedAt: timestamp.openapi({ description: 'when they last wrote a revision of it (ISO 8601 date-time)' }),
    count: z.number().int().openapi({ description: 'how many revisions of it they wrote' }),
    user: userSchema,
    actionType: z
      .literal('edit')
      .openapi({ description: 'GitBook 0.202: always `edit` (contributors are counted by the revisions they wrote)' }),
  })
  .openapi('ChangeRequestUserContributor', { description: 'A user who wrote revisions of a change request' });

/** `users`: every user the reviews name, by id; `comment`: the review's comment, presented. */
export function presentReview(
  review: ChangeRequestReview,
  details: {
    users: Map<string, User>;
    superseded: Set<string>;
    comment: Presented<typeof commentSchema> | undefined;
    location: string;
  },
  urls: Urls,
): Presented<typeof reviewSchema> {
  const requestedBy = review.requestedById ? details.users.get(review.requestedById) : undefined;
  return {
    object: 'change-request-review',
    id: review.id,
    revision: review.revisionId,
    reviewer: presentUser(details.users.get(review.reviewerId)!, urls),
    requestedBy: requestedBy ? presentUser(requestedBy, urls) : null,
    status: review.status,
    outdated: details.superseded.has(review.id),
    comment: details.comment,
    createdAt: iso(review.createdAt),
    updatedAt: iso(review.updatedAt),
    urls: { location: details.location },
  };
}

export function presentRequestedReviewer(
  request: ChangeRequestRequestedReviewer,
  users: Map<string, User>,
  urls: Urls,
): Presented<typeof requestedReviewerSchema> {
  return {
    object: 'change-request-requested-reviewer',
    revision: request.revisionId,
    requestedBy: presentUser(users.get(request.requestedById)!, urls),
    createdAt: iso(request.createdAt),
    kind: 'user',
    user: presentUser(users.get(request.userId)!, urls),
  };
}
