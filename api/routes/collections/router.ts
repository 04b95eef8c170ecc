/** Collections: list and create in an organization, read, update, delete, and list the spaces inside. */
import { authorize, permissionsOf, viewableContent } from '../../../domain/access/authorize';
import { createCollection, deleteCollection, updateCollection } from '../../../domain/collections/collections';
import { collectionsOfOrganizationQuery } from '../../../domain/collections/queries';
import { counterSelects, countersOfSpaces, publishedLocationsOfRows } from '../../../domain/spaces/counters';
import { spacesInCollectionStatement } from '../../../domain/spaces/queries';
import { Collection } from '../../../entities/Collection';
import { lockRow } from '../../../platform/db/lock-row';
import { inTransaction } from '../../../platform/db/transactions';
import { authorizeParent } from '../../authorize-parent';
import { loadCollection, loadOrganization, loadVisibleOrganization } from '../../loaders';
import { lockedMatch, requireMatch, taggedAnswer, versionTag } from '../../middleware/conditional';
import { paginate, paginateStatement } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { collectionSchema, presentCollection } from '../../presenters/collection';
import { listSchema, presentList } from '../../presenters/common';
import { spaceSchema } from '../../presenters/space';
import { Urls } from '../../presenters/urls';
import { organizationIdParams } from '../orgs/schema';
import { presentSpacesFor } from '../spaces/present';
import { collectionPlacementRoutes } from './placement';
import {
  collectionIdParams,
  createCollectionBody,
  listCollectionSpacesQuery,
  listCollectionsQuery,
  patchCollectionBody,
} from './schema';

export function collectionRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/collections',
      operationId: 'listCollections',
      description:
        'Lists the collections of an organization that the caller can view: by default every collection, oldest first; with `nested=false` only the top-level ones, in their order in the app. Any member of the organization, guests included (they see only what they were given a role on).',
      tags: ['collections'],
      summary: 'List the collections of an organization that the caller can view',
      params: organizationIdParams,
      query: listCollectionsQuery,
      responses: { 200: { description: 'collections', schema: listSchema(collectionSchema) } },
    },
    async ({ params, query, caller, access }) => {
      const org = await loadVisibleOrganization(access, params.organizationId);
      const nested = query.nested ?? true;
      const viewable = await viewableContent(access, org.id);
      // Top-level collections come in the app's order; nested ones from many parents by creation.
      const sortColumn = nested ? 'c.createdAt' : 'c.position';
      const page = await paginate(
        collectionsOfOrganizationQuery(ds.manager, org.id, !nested, viewable),
        [
          { column: sortColumn, direction: 'ASC', value: (c) => (nested ? c.createdAt : c.position) },
          { column: 'c.id', direction: 'ASC', value: (c) => c.id },
        ],
        { limit: query.limit, page: query.page, scope: `collections:${org.id}:nested=${nested}:${caller.userId}` },
        config.cursorSecret,
      );
      const items = [];
      for (const c of page.items)
        items.push(presentCollection(c, await permissionsOf(access, { kind: 'collection', collection: c }), urls));
      return { status: 200, body: presentList(page, items) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/collections',
      operationId: 'createCollection',
      description:
        'Creates a collection at the organization root or inside `parent`, last among its siblings. Needs `create` on the parent collection, or `createContent` on the organization (role `create` or above) for the root.',
      tags: ['collections'],
      summary: 'Create a collection at the organization root or inside a parent collection',
      params: organizationIdParams,
      body: createCollectionBody,
      responses: { 201: { description: 'created', schema: collectionSchema } },
    },
    async ({ params, body, access }) => {
      const org = await loadOrganization(access, params.organizationId);
      const parent = await authorizeParent(access, org, body.parent ?? null);
      const collection = await inTransaction(ds, (db) => createCollection(db, org.id, parent, { title: body.title }));
      const perms = await permissionsOf(access, { kind: 'collection', collection });
      return {
        status: 201,
        headers: { Location: urls.api(`/collections/${collection.id}`) },
        body: presentCollection(collection, perms, urls),
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/collections/{collectionId}',
      operationId: 'getCollection',
      description:
        "Returns one collection with the caller's permissions on it. Needs `view` on the collection (role `read` or above there).",
      tags: ['collections'],
      summary: 'Get a collection',
      params: collectionIdParams,
      responses: {
        200: { description: 'collection', schema: collectionSchema },
        304: { description: 'not modified: the `If-None-Match` ETag is current (extension)' },
      },
    },
    async ({ params, access, req }) => {
      const collection = await loadCollection(access, params.collectionId);
      const perms = await authorize(access, { kind: 'collection', collection }, 'view');
      return taggedAnswer(req, versionTag(collection.version, perms), () => presentCollection(collection, perms, urls));
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/collections/{collectionId}',
      operationId: 'updateCollection',
      description:
        "Changes a collection's title, description or default level; fields left out keep their value. Needs `admin` on the collection. To move it, use `POST /v1/collections/{collectionId}/move`.",
      tags: ['collections'],
      summary: 'Update a collection (title, description, defaultLevel)',
      params: collectionIdParams,
      body: patchCollectionBody,
      fieldsElsewhere: {
        parent: 'moving a collection is POST /v1/collections/{collectionId}/move',
        position: 'moving a collection is POST /v1/collections/{collectionId}/move',
      },
      responses: {
        200: { description: 'collection', schema: collectionSchema },
        412: { description: 'the `If-Match` ETag is not the current one (extension)' },
      },
    },
    async ({ params, body, access, req }) => {
      const collection = await loadCollection(access, params.collectionId);
      const perms = await authorize(access, { kind: 'collection', collection }, 'admin');
      const updated = await inTransaction(ds, async (db) => {
        // the check and the write under one row lock: of two editors holding one ETag, the second gets 412
        const locked = await lockedMatch(
          req,
          () => lockRow(db, Collection, { id: collection.id }),
          (c) => versionTag(c.version, perms),
        );
        return updateCollection(db, locked ?? collection, body);
      });
      return {
        status: 200,
        body: presentCollection(
          updated,
          await permissionsOf(access, { kind: 'collection', collection: updated }),
          urls,
        ),
      };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/collections/{collectionId}',
      operationId: 'deleteCollection',
      description:
        'Deletes an empty collection and the roles given on it. A collection that still holds collections or spaces is refused with a 409; deleted spaces inside move up to its parent. Needs `admin` on the collection; one the caller cannot see answers 204 with no change.',
      tags: ['collections'],
      summary: 'Delete an empty collection (409 while it still holds spaces or collections)',
      params: collectionIdParams,
      responses: {
        204: { description: 'deleted (also when it does not exist or is not visible to the caller)' },
        412: { description: 'the `If-Match` ETag is not the current one, or the collection is gone (extension)' },
      },
    },
    async ({ params, access, req }) => {
      const collection = await access.db.findOneBy(Collection, { id: params.collectionId });
      const perms = collection && (await permissionsOf(access, { kind: 'collection', collection }));
      // nothing the caller can see: 204 and no change, alike for unknown ids and other organizations' collections;
      // with If-Match, a 412 (RFC 9110: the resource it was based on is gone)
      if (!collection || !perms?.view) {
        requireMatch(req, null);
        return { status: 204 };
      }
      await authorize(access, { kind: 'collection', collection }, 'admin');
      await inTransaction(ds, async (db) => {
        const locked = await lockedMatch(
          req,
          () => lockRow(db, Collection, { id: collection.id }),
          (c) => versionTag(c.version, perms),
        );
        await deleteCollection(db, locked ?? collection);
      });
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/collections/{collectionId}/spaces',
      operationId: 'listCollectionSpaces',
      description:
        'Lists the spaces directly inside a collection that the caller can view, in their order in the app; deleted spaces are left out. Needs `view` on the collection.',
      tags: ['collections'],
      summary: 'List the spaces directly inside a collection, in their order',
      params: collectionIdParams,
      query: listCollectionSpacesQuery,
      responses: { 200: { description: 'spaces', schema: listSchema(spaceSchema) } },
    },
    async ({ params, query, caller, access }) => {
      const collection = await loadCollection(access, params.collectionId);
      await authorize(access, { kind: 'collection', collection }, 'view');
      const viewable = await viewableContent(access, collection.organizationId);
      const page = await paginateStatement(
        { ...spacesInCollectionStatement(ds.manager, collection.id, viewable), selects: counterSelects('s') },
        [
          { column: 's.position', direction: 'ASC', value: (s) => s.position },
          { column: 's.id', direction: 'ASC', value: (s) => s.id },
        ],
        { limit: query.limit, page: query.page, scope: `collectionSpaces:${collection.id}:${caller.userId}` },
        config.cursorSecret,
      );
      const published = await publishedLocationsOfRows(ds.manager, 's', page.rows);
      return {
        status: 200,
        body: presentList(
          page,
          await presentSpacesFor(access, page.items, urls, countersOfSpaces(page.items, published)),
        ),
      };
    },
  );

  collectionPlacementRoutes(api);
}
