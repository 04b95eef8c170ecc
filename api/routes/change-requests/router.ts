/** Change requests of a space: list, create, read, update, merge into the space, update from the space. */
import type { Request } from 'express';
import { authorize } from '../../../domain/access/authorize';
import {
  ChangeRequestDetails,
  changeRequestsOfSpaceQuery,
  describeChangeRequests,
} from '../../../domain/content/change-request-queries';
import {
  createChangeRequest,
  isOutdated,
  mergeChangeRequest,
  updateChangeRequest,
  updateFromSpace,
} from '../../../domain/content/change-requests';
import { ChangeRequest } from '../../../entities/ChangeRequest';
import type { Space } from '../../../entities/Space';
import { lockRow } from '../../../platform/db/lock-row';
import { Db, inTransaction } from '../../../platform/db/transactions';
import { loadChangeRequest, loadSpace } from '../../loaders';
import { lockedMatch, taggedAnswer, versionTag } from '../../middleware/conditional';
import { paginate, SortKey } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { changeRequestResultSchema, changeRequestSchema, presentChangeRequest } from '../../presenters/change-request';
import { listSchema, presentList } from '../../presenters/common';
import { Urls } from '../../presenters/urls';
import { spaceIdParams } from '../spaces/schema';
import {
  changeRequestIdParams,
  createChangeRequestBody,
  listChangeRequestsQuery,
  patchChangeRequestBody,
} from './schema';

export function changeRequestRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  async function present(space: Space, changeRequests: ChangeRequest[]) {
    return (await describeChangeRequests(ds.manager, changeRequests)).map((d) => presentChangeRequest(d, space, urls));
  }

  /** The answer's ETag: the row's version, and what the answer derives from elsewhere (open comments, outdated). */
  const etagOf = (d: ChangeRequestDetails, space: Space) =>
    versionTag(d.changeRequest.version, {}, d.comments, isOutdated(d.changeRequest, space) ? 1 : 0);

  /** `If-Match` of a write to the change request, checked under its row lock in the write's transaction. */
  const matchLocked = (req: Request, db: Db, space: Space, id: string) =>
    lockedMatch(
      req,
      () => lockRow(db, ChangeRequest, { id, spaceId: space.id }),
      async (cr) => etagOf((await describeChangeRequests(db, [cr]))[0], space),
    );

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/change-requests',
      operationId: 'listChangeRequests',
      description:
        'Lists the change requests of a space, paginated, newest number first (or newest first by `orderBy`); only the open ones unless `status` says otherwise, and `creator` or `contributor` narrow the list to one user. Needs read access to the space. Changes nothing.',
      tags: ['change-requests'],
      summary: 'List the change requests of a space, newest number first',
      params: spaceIdParams,
      query: listChangeRequestsQuery,
      responses: { 200: { description: 'change requests', schema: listSchema(changeRequestSchema) } },
    },
    async ({ params, query, access }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'view');
      const filter = { status: query.status ?? 'open', contributor: query.contributor, creator: query.creator };
      const first: SortKey<ChangeRequest> = query.orderBy
        ? { column: `cr.${query.orderBy}`, direction: 'DESC', value: (cr) => cr[query.orderBy!] }
        : { column: 'cr.number', direction: 'DESC', value: (cr) => cr.number };
      const page = await paginate(
        changeRequestsOfSpaceQuery(ds.manager, space.id, filter),
        [first, { column: 'cr.id', direction: 'DESC', value: (cr) => cr.id }],
        {
          limit: query.limit,
          page: query.page,
          scope: JSON.stringify(['change-requests', space.id, filter, query.orderBy ?? 'number']),
        },
        config.cursorSecret,
      );
      return { status: 200, body: presentList(page, await present(space, page.items)) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/change-requests',
      operationId: 'createChangeRequest',
      description:
        "Opens a change request on the space's current revision, with the next number in the space and status `open`; its content starts as the space's and is edited through the change request forms of the content operations. Needs `edit` on the space. Adds one change request row and updates the space's change request counts; no revision is written (except a space's empty first one, when it had none).",
      tags: ['change-requests'],
      summary: "Open a change request from the space's current revision",
      params: spaceIdParams,
      body: createChangeRequestBody,
      responses: { 201: { description: 'created', schema: changeRequestSchema } },
    },
    async ({ params, body, caller, access }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'edit');
      const cr = await inTransaction(ds, (db) => createChangeRequest(db, space.id, body, caller.userId));
      const [presented] = await present(space, [cr]);
      return { status: 201, headers: { Location: presented.urls.location }, body: presented };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}',
      operationId: 'getChangeRequest',
      description:
        'Reads one change request, named by its id or its number in the space, with its author, revisions, open comment count and whether it is outdated. Needs read access to the space. Changes nothing.',
      tags: ['change-requests'],
      summary: 'Get a change request by id or by number',
      params: changeRequestIdParams,
      responses: {
        200: { description: 'change request', schema: changeRequestSchema },
        304: { description: 'not modified: the `If-None-Match` ETag is current (extension)' },
      },
    },
    async ({ params, access, req }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'view');
      const cr = await loadChangeRequest(access, space, params.changeRequestId);
      const [details] = await describeChangeRequests(ds.manager, [cr]);
      return taggedAnswer(req, etagOf(details, space), () => presentChangeRequest(details, space, urls));
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}',
      operationId: 'updateChangeRequest',
      description:
        "Changes the subject and/or the status of a change request (draft, open or archived; `merged` only comes from merging). Needs `edit` on the space. A merged change request cannot change status (409); a status change updates the space's change request counts.",
      tags: ['change-requests'],
      summary: 'Update the subject or status (draft, open, archived) of a change request',
      params: changeRequestIdParams,
      body: patchChangeRequestBody,
      responses: {
        200: { description: 'change request', schema: changeRequestSchema },
        412: { description: 'the `If-Match` ETag is not the current one (extension)' },
      },
    },
    async ({ params, body, access, req }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'edit');
      const cr = await loadChangeRequest(access, space, params.changeRequestId);
      const updated = await inTransaction(ds, async (db) => {
        await matchLocked(req, db, space, cr.id);
        return updateChangeRequest(db, cr.id, body);
      });
      return { status: 200, body: (await present(space, [updated]))[0] };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge',
      operationId: 'mergeChangeRequest',
      description:
        'Merges the change request into the space: a three-way merge against the last revision both shared, committed as one `merge` revision on the space, after which the change request is `merged`. Needs `review` on the space. The search and link indexes follow in the same transaction and integrations installed on the space get `space_content_updated` (integration event dispatch job). 409, with nothing written, on conflicting pages (listed in the error), a locked space, or a change request already merged or archived.',
      tags: ['change-requests'],
      summary: 'Merge the change request into the space (409 listing the conflicting pages; nothing is written then)',
      params: changeRequestIdParams,
      responses: {
        200: { description: "the space's new revision", schema: changeRequestResultSchema('merge') },
        412: { description: 'the `If-Match` ETag is not the current one (extension)' },
      },
    },
    async ({ params, caller, access, req }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'merge');
      const cr = await loadChangeRequest(access, space, params.changeRequestId);
      const revision = await inTransaction(api.deps, async (db) => {
        await matchLocked(req, db, space, cr.id);
        return mergeChangeRequest(db, cr.id, caller.userId, config.appBaseUrl);
      });
      return { status: 200, body: { revision: revision.id, result: 'merge' } };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update',
      operationId: 'updateChangeRequestFromSpace',
      description:
        "Brings the space's current content into the change request: a three-way merge committed as one `update` revision on the change request, which then counts as up to date (`outdated` false). Needs `edit` on the space. Nothing is written when the space has not moved since; 409, with nothing written, on conflicting pages or a merged or archived change request.",
      tags: ['change-requests'],
      summary: "Pull the space's current content into the change request",
      params: changeRequestIdParams,
      responses: {
        200: { description: "the change request's head revision", schema: changeRequestResultSchema('update') },
      },
    },
    async ({ params, caller, access }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'edit');
      const cr = await loadChangeRequest(access, space, params.changeRequestId);
      const revision = await inTransaction(api.deps, (db) =>
        updateFromSpace(db, cr.id, caller.userId, config.appBaseUrl),
      );
      return { status: 200, body: { revision: revision.id, result: 'update' } };
    },
  );
}
