/** Spaces: list and create (extension) in an organization, read and update. Lifecycle, placement and member views are beside. */
import { authorize, viewableContent } from '../../../domain/access/authorize';
import { counterSelects, countersOfSpaces, publishedLocationsOfRows } from '../../../domain/spaces/counters';
import { lockSpace } from '../../../domain/spaces/deletion';
import { spacesOfOrganizationStatement } from '../../../domain/spaces/queries';
import { createSpace, updateSpace } from '../../../domain/spaces/spaces';
import { inTransaction } from '../../../platform/db/transactions';
import { AnswersOfRows } from '../../answers-of-rows';
import { authorizeParent } from '../../authorize-parent';
import { loadOrganization, loadSpace, loadSpaceWithCounters } from '../../loaders';
import { hasIfMatch, notModified, requireMatch, versionTag } from '../../middleware/conditional';
import { paginateStatement } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { presentSpace, spaceSchema } from '../../presenters/space';
import { Urls } from '../../presenters/urls';
import { organizationIdParams } from '../orgs/schema';
import { spaceWithShareKey } from '../sites/share-key';
import { spaceLifecycleRoutes } from './lifecycle';
import { memberSpacesRoutes } from './member-spaces';
import { spacePlacementRoutes } from './placement';
import { presentSpaceFor, presentSpacesFor } from './present';
import { createSpaceBody, getSpaceQuery, listSpacesQuery, patchSpaceBody, spaceIdParams } from './schema';

const spaceListSchema = listSchema(spaceSchema);

export function spaceRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  // a list answer is sent again while its rows are the same (api/answers-of-rows.ts)
  const spaceListAnswers = new AnswersOfRows(spaceListSchema, 8 * 2 ** 20);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/spaces',
      operationId: 'listSpaces',
      description:
        'Lists the spaces of an organization that the caller can view, newest first; deleted spaces are left out. Any member of the organization, guests included (they see only spaces they were given a role on).',
      tags: ['spaces'],
      summary: 'List the spaces of an organization that the caller can view, newest first',
      params: organizationIdParams,
      query: listSpacesQuery,
      responses: { 200: { description: 'spaces', schema: spaceListSchema } },
    },
    async ({ params, query, caller, access, req }) => {
      // the caller's membership (read with the token) is what decides, so the organization row is not read
      const org = { id: params.organizationId };
      await authorize(access, { kind: 'organization', organization: org }, 'view');
      const page = await paginateStatement(
        {
          ...spacesOfOrganizationStatement(ds.manager, org.id, await viewableContent(access, org.id)),
          selects: counterSelects('s'),
        },
        [
          { column: 's.createdAt', direction: 'DESC', value: (s) => s.createdAt },
          { column: 's.id', direction: 'DESC', value: (s) => s.id },
        ],
        { limit: query.limit, page: query.page, scope: `spaces:${org.id}:${caller.userId}` },
        config.cursorSecret,
      );
      const published = await publishedLocationsOfRows(ds.manager, 's', page.rows);
      // all that was read for the answer: the rows (with a first page's count), a later page's count and cursor, and
      // where its spaces are published
      const read = [page.rows, page.count, page.next?.page, [...published]];
      return spaceListAnswers.reply(req.originalUrl, caller, access, read, async () =>
        presentList(page, await presentSpacesFor(access, page.items, urls, countersOfSpaces(page.items, published))),
      );
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/spaces',
      operationId: 'createSpace',
      description:
        'Creates a `private` space with an empty first revision, at the organization root or inside `parent`, last among its siblings. Needs `create` on the parent collection, or `createContent` on the organization (role `create` or above) for the root.',
      tags: ['spaces'],
      extension: true,
      summary: 'Create a private space at the organization root or inside a collection',
      params: organizationIdParams,
      body: createSpaceBody,
      responses: { 201: { description: 'created', schema: spaceSchema } },
    },
    async ({ params, body, access, caller }) => {
      const org = await loadOrganization(access, params.organizationId);
      const { parent: parentId, ...input } = body;
      const parent = await authorizeParent(access, org, parentId ?? null);
      const space = await inTransaction(ds, (db) => createSpace(db, org.id, parent, input, caller.userId));
      return {
        status: 201,
        headers: { Location: urls.api(`/spaces/${space.id}`) },
        body: await presentSpaceFor(access, space, urls),
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}',
      operationId: 'getSpace',
      description:
        "Returns one space with its counters and the caller's permissions; a soft-deleted space is a 404 (restore it first). Needs `view` on the space (role `read` or above). With `shareKey`, `urls.published` is the space's address in the share-link site the key opens.",
      tags: ['spaces'],
      summary: 'Get a space (a soft-deleted space is 404 here; restore it first)',
      params: spaceIdParams,
      query: getSpaceQuery,
      responses: {
        200: { description: 'space', schema: spaceSchema },
        304: { description: 'not modified: the `If-None-Match` ETag is current (extension)' },
      },
    },
    async ({ params, query, access, req }) => {
      const { space, counters } = await loadSpaceWithCounters(access, params.spaceId);
      const permissions = await authorize(access, { kind: 'space', space }, 'view');
      // with a share link's key: the space's URL in the share-link site the key opens, an answer without an ETag
      if (query.shareKey !== undefined) {
        const body = presentSpace(space, permissions, counters, urls);
        return { status: 200, body: await spaceWithShareKey(access.db, space, query.shareKey, body, urls) };
      }
      const etag = versionTag(space.version, permissions);
      if (notModified(req, etag)) return { status: 304, headers: { ETag: etag } };
      return { status: 200, headers: { ETag: etag }, body: presentSpace(space, permissions, counters, urls) };
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/spaces/{spaceId}',
      operationId: 'updateSpace',
      description:
        "Changes a space's title, emoji, language, edit mode, default level or visibility; fields left out keep their value. Needs `admin` on the space. A change of `visibility` records a `space_visibility_updated` event for each integration installation covering the space, each delivered by its own integration dispatch job (`node dist/cli/main.js jobs watch <eventId>`).",
      tags: ['spaces'],
      summary: 'Update a space (editMode, title, defaultLevel, language, emoji; extension: visibility)',
      params: spaceIdParams,
      body: patchSpaceBody,
      fieldsElsewhere: {
        parent: 'moving a space is POST /v1/spaces/{spaceId}/move',
        position: 'moving a space is POST /v1/spaces/{spaceId}/move',
      },
      responses: {
        200: { description: 'space', schema: spaceSchema },
        412: { description: 'the `If-Match` ETag is not the current one (extension)' },
      },
    },
    async ({ params, body, access, req }) => {
      const space = await loadSpace(access, params.spaceId);
      const permissions = await authorize(access, { kind: 'space', space }, 'admin');
      const updated = await inTransaction(api.deps, async (db) => {
        if (!hasIfMatch(req)) return updateSpace(db, space, body);
        // the check and the write under one row lock: of two editors holding one ETag, the second gets 412
        const locked = await lockSpace(db, space.id);
        requireMatch(req, locked.deletedAt ? null : versionTag(locked.version, permissions));
        return updateSpace(db, locked, body);
      });
      return { status: 200, body: await presentSpaceFor(access, updated, urls) };
    },
  );

  spaceLifecycleRoutes(api);
  spacePlacementRoutes(api);
  memberSpacesRoutes(api);
}
