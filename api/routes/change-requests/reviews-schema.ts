import { z } from 'zod';
import { REVIEW_STATUSES } from '../../presenters/change-request-review';
import { paginationQuery } from '../../query';
import { pathId, resourceId, text } from '../../schemas';
import { documentAsMarkdown, formatQuery } from '../comments/schema';
import { changeRequestIdParams } from './schema';

export const REVIEWERS_MAX = 50;

export const reviewIdParams = {
  ...changeRequestIdParams,
  reviewId: pathId('review').openapi({ description: 'id of the review' }),
};

export const requestedReviewerParams = {
  ...changeRequestIdParams,
  userId: pathId('requested reviewer').openapi({ description: 'id of the user whose review was asked' }),
};

export const requestReviewersBody = z
  .object({
    users: z
      .array(resourceId)
      .max(REVIEWERS_MAX)
      .openapi({
        description: `ids of the users asked to review, at most ${REVIEWERS_MAX}: members of the organization with \`review\` on the space, not the author`,
      }),
    subject: text({ max: 100 })
      .optional()
      .openapi({ description: "sets the change request's subject at the same time, at most 100 characters" }),
  })
  .strict();

export const submitReviewBody = z
  .object({
    status: z.enum(REVIEW_STATUSES).openapi({ description: '`approved` or `changes-requested`' }),
    comment: documentAsMarkdown
      .optional()
      .openapi({ description: "GitBook's JSON document, posted as a comment of the change request with the review" }),
  })
  .strict();

export const listReviewsQuery = { ...paginationQuery, ...formatQuery };
export const listRequestedReviewersQuery = { ...paginationQuery };
