/**
 * Reviews of change requests (GitBook's paths and shapes): the reviews asked of users, the reviews submitted
 * against the change request's revision of the moment, and the users who wrote its revisions.
 */

import { In } from 'typeorm';
import { authorize } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { usersById } from '../../../domain/comments/details';
import { notFound } from '../../../domain/errors';
import { changeRequestContributors } from '../../../domain/reviews/contributors';
import {
  removeRequestedReviewer,
  requestedReviewersQuery,
  requestReviewers,
} from '../../../domain/reviews/requested-reviewers';
import { findReview, reviewsQuery, submitReview, supersededReviews } from '../../../domain/reviews/reviews';
import type { ChangeRequest } from '../../../entities/ChangeRequest';
import type { ChangeRequestRequestedReviewer } from '../../../entities/ChangeRequestRequestedReviewer';
import type { ChangeRequestReview } from '../../../entities/ChangeRequestReview';
import { Comment } from '../../../entities/Comment';
import type { Space } from '../../../entities/Space';
import { inTransaction } from '../../../platform/db/transactions';
import { loadChangeRequest, loadSpace } from '../../loaders';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import {
  contributorSchema,
  presentRequestedReviewer,
  presentReview,
  requestedReviewerSchema,
  requestedReviewersResultSchema,
  reviewSchema,
} from '../../presenters/change-request-review';
import type { BodyFormat } from '../../presenters/comment';
import { iso, listSchema, presentList } from '../../presenters/common';
import { Urls } from '../../presenters/urls';
import { presentUser } from '../../presenters/user';
import { presentComments } from '../comments/router';
import {
  listRequestedReviewersQuery,
  listReviewsQuery,
  requestedReviewerParams,
  requestReviewersBody,
  reviewIdParams,
  submitReviewBody,
} from './reviews-schema';
import { changeRequestIdParams } from './schema';

const TAGS = ['change-request reviews'];

export function changeRequestReviewRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  const crPath = (space: Space, cr: ChangeRequest) => `/spaces/${space.id}/change-requests/${cr.id}`;

  /** The space and change request the path names, once the caller may `action` on the space. */
  async function load(
    access: AccessContext,
    params: { spaceId: string; changeRequestId: string },
    action: 'view' | 'edit' | 'review',
  ) {
    const space = await loadSpace(access, params.spaceId);
    await authorize(access, { kind: 'space', space }, action);
    return { space, changeRequest: await loadChangeRequest(access, space, params.changeRequestId) };
  }

  async function presentReviews(
    access: AccessContext,
    space: Space,
    cr: ChangeRequest,
    reviews: ChangeRequestReview[],
    format: BodyFormat,
  ) {
    const users = await usersById(
      access.db,
      reviews.flatMap((r) => [r.reviewerId, r.requestedById]),
    );
    const superseded = await supersededReviews(access.db, cr.id);
    const commentIds = reviews.map((r) => r.commentId).filter((id): id is string => !!id);
    const comments = commentIds.length ? await access.db.findBy(Comment, { id: In(commentIds) }) : [];
    const presented = await presentComments(access, { space, changeRequest: cr }, comments, format, urls);
    const byId = new Map(presented.map((c) => [c.id, c]));
    return reviews.map((r) =>
      presentReview(
        r,
        {
          users,
          superseded,
          comment: r.commentId ? byId.get(r.commentId) : undefined,
          location: urls.api(`${crPath(space, cr)}/reviews/${r.id}`),
        },
        urls,
      ),
    );
  }

  async function presentRequests(access: AccessContext, requests: ChangeRequestRequestedReviewer[]) {
    const users = await usersById(
      access.db,
      requests.flatMap((r) => [r.userId, r.requestedById]),
    );
    return requests.map((r) => presentRequestedReviewer(r, users, urls));
  }

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
      operationId: 'listChangeRequestRequestedReviewers',
      extension: true,
      description:
        'Lists the reviews asked on the change request and not yet given, oldest request first, paginated. Needs read access to the space. Changes nothing.',
      tags: TAGS,
      summary: 'List the users asked to review a change request',
      params: changeRequestIdParams,
      query: listRequestedReviewersQuery,
      responses: { 200: { description: 'requested reviewers', schema: listSchema(requestedReviewerSchema) } },
    },
    async ({ params, query, access }) => {
      const { changeRequest } = await load(access, params, 'view');
      const page = await paginate(
        requestedReviewersQuery(ds.manager, changeRequest.id),
        [
          { column: 'rr.createdAt', direction: 'ASC', value: (r) => r.createdAt },
          { column: 'rr.userId', direction: 'ASC', value: (r) => r.userId },
        ],
        { limit: query.limit, page: query.page, scope: `requested-reviewers:${changeRequest.id}` },
        config.cursorSecret,
      );
      return { status: 200, body: presentList(page, await presentRequests(access, page.items)) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers',
      operationId: 'requestChangeRequestReviewers',
      extension: true,
      description:
        "Asks users to review the change request (and sets its `subject` when given). Each must be a member of the organization holding `review` on the space, and not the change request's author (400 naming the user); asking again renews the request at the current revision. Needs `edit` on the space; 409 on a merged or archived change request. Adds or renews one request per user; nothing is written on a 400.",
      tags: TAGS,
      summary: 'Ask users to review a change request',
      params: changeRequestIdParams,
      body: requestReviewersBody,
      responses: { 200: { description: 'the requests made', schema: requestedReviewersResultSchema } },
    },
    async ({ params, body, caller, access }) => {
      const { space, changeRequest } = await load(access, params, 'edit');
      const requests = await inTransaction(ds, (db) =>
        requestReviewers(db, space, changeRequest.id, body, caller.userId),
      );
      return { status: 200, body: { users: await presentRequests(access, requests) } };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}',
      operationId: 'removeChangeRequestRequestedReviewer',
      extension: true,
      description:
        "Withdraws the request for the user's review; their reviews already given stay. Needs `edit` on the space. Answers 204 also when no review was asked of the user.",
      tags: TAGS,
      summary: 'Withdraw a review request',
      params: requestedReviewerParams,
      responses: { 204: { description: 'withdrawn, or there was no such request' } },
    },
    async ({ params, access }) => {
      const { changeRequest } = await load(access, params, 'edit');
      await inTransaction(ds, (db) => removeRequestedReviewer(db, changeRequest.id, params.userId));
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
      operationId: 'listChangeRequestReviews',
      extension: true,
      description:
        "Lists the reviews of the change request, oldest first, paginated. A review counts towards the merge rules while it is not `outdated` and its `revision` is the change request's `revision`. Needs read access to the space. Changes nothing.",
      tags: TAGS,
      summary: 'List the reviews of a change request',
      params: changeRequestIdParams,
      query: listReviewsQuery,
      responses: { 200: { description: 'reviews', schema: listSchema(reviewSchema) } },
    },
    async ({ params, query, access }) => {
      const { space, changeRequest } = await load(access, params, 'view');
      const page = await paginate(
        reviewsQuery(ds.manager, changeRequest.id),
        [
          { column: 'rv.createdAt', direction: 'ASC', value: (r) => r.createdAt },
          { column: 'rv.id', direction: 'ASC', value: (r) => r.id },
        ],
        { limit: query.limit, page: query.page, scope: `reviews:${changeRequest.id}` },
        config.cursorSecret,
      );
      const items = await presentReviews(access, space, changeRequest, page.items, query.format ?? 'markdown');
      return { status: 200, body: presentList(page, items) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews',
      operationId: 'submitChangeRequestReview',
      extension: true,
      description:
        "Submits the caller's review of the change request at its current revision: `approved` or `changes-requested`, with an optional comment (a GitBook document, posted on the change request's comments). A later commit makes it stale. Needs `review` on the space; the author cannot approve their own change request (403); 409 on a merged or archived one. A pending request for the caller's review is answered by it.",
      tags: TAGS,
      summary: 'Review a change request',
      params: changeRequestIdParams,
      body: submitReviewBody,
      responses: { 201: { description: 'the review', schema: reviewSchema } },
    },
    async ({ params, body, caller, access }) => {
      const { space, changeRequest } = await load(access, params, 'review');
      const review = await inTransaction(ds, (db) => submitReview(db, space, changeRequest.id, body, caller.userId));
      const [presented] = await presentReviews(access, space, changeRequest, [review], 'markdown');
      return { status: 201, headers: { Location: presented.urls.location }, body: presented };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}',
      operationId: 'getChangeRequestReview',
      extension: true,
      description:
        'Reads one review of the change request (GitBook 0.202). Needs read access to the space. Changes nothing.',
      tags: TAGS,
      summary: 'Get a review of a change request',
      params: reviewIdParams,
      query: { format: listReviewsQuery.format },
      responses: { 200: { description: 'the review', schema: reviewSchema } },
    },
    async ({ params, query, access }) => {
      const { space, changeRequest } = await load(access, params, 'view');
      const review = await findReview(ds.manager, changeRequest.id, params.reviewId);
      if (!review) throw notFound('review');
      const [presented] = await presentReviews(access, space, changeRequest, [review], query.format ?? 'markdown');
      return { status: 200, body: presented };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/contributors',
      operationId: 'listChangeRequestContributors',
      extension: true,
      description:
        'Lists the users who wrote revisions of the change request, with how many and when the last, most recent first (merging is not writing). Needs read access to the space. Changes nothing.',
      tags: TAGS,
      summary: 'List the users who wrote revisions of a change request',
      params: changeRequestIdParams,
      responses: { 200: { description: 'contributors', schema: listSchema(contributorSchema) } },
    },
    async ({ params, access }) => {
      const { changeRequest } = await load(access, params, 'view');
      const contributors = await changeRequestContributors(ds.manager, changeRequest.id);
      const items = contributors.map((c) => ({
        updatedAt: iso(c.updatedAt),
        count: c.count,
        user: presentUser(c.user, urls),
        actionType: 'edit' as const,
      }));
      return { status: 200, body: { items, count: items.length } };
    },
  );
}
