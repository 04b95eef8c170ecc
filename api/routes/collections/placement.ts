/** Moving a collection inside its organization and transferring it to another organization. */
import { authorize, permissionsOf } from '../../../domain/access/authorize';
import { moveCollection, transferCollection } from '../../../domain/collections/placement';
import { inTransaction } from '../../../platform/db/transactions';
import { authorizeParent } from '../../authorize-parent';
import { loadCollection, loadOrganization } from '../../loaders';
import type { ApiBuilder } from '../../operation';
import { collectionSchema, presentCollection } from '../../presenters/collection';
import { Urls } from '../../presenters/urls';
import { collectionIdParams, moveBody, toPlacement, transferCollectionBody } from './schema';

export function collectionPlacementRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  api.op(
    {
      method: 'post',
      path: '/v1/collections/{collectionId}/move',
      operationId: 'moveCollection',
      description:
        'Moves a collection under another parent collection (`parent`, null for the organization root) and/or next to a sibling (`position`). Needs `admin` on the collection and, when the parent changes, `create` on the new parent (or `createContent` on the organization for its root). Moving it into itself or one of its descendants is a 409.',
      tags: ['collections'],
      summary: 'Move a collection under another parent (null: organization root) and/or next to a sibling',
      params: collectionIdParams,
      body: moveBody,
      responses: { 200: { description: 'moved', schema: collectionSchema } },
    },
    async ({ params, body, access }) => {
      const collection = await loadCollection(access, params.collectionId);
      await authorize(access, { kind: 'collection', collection }, 'admin');
      const parentId = body.parent === undefined ? collection.parentId : body.parent;
      // Reordering among the same siblings needs nothing more; a new parent must accept new content.
      if (parentId !== collection.parentId)
        await authorizeParent(access, await loadOrganization(access, collection.organizationId), parentId);
      const moved = await inTransaction(ds, (db) =>
        moveCollection(db, collection, parentId, toPlacement(body.position)),
      );
      return {
        status: 200,
        body: presentCollection(moved, await permissionsOf(access, { kind: 'collection', collection: moved }), urls),
      };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/collections/{collectionId}/transfer',
      operationId: 'transferCollection',
      description:
        "Moves a collection with its sub-collections and all their spaces (deleted ones too) to the root of another organization. Roles given on them to users and teams are dropped, and the spaces leave the old organization's sites. Needs `admin` on the collection and `createContent` in the target organization.",
      tags: ['collections'],
      summary: 'Transfer a collection, its sub-collections and their spaces to the root of another organization',
      params: collectionIdParams,
      body: transferCollectionBody,
      responses: { 200: { description: 'transferred', schema: collectionSchema } },
    },
    async ({ params, body, access }) => {
      const collection = await loadCollection(access, params.collectionId);
      await authorize(access, { kind: 'collection', collection }, 'admin');
      const target = await loadOrganization(access, body.organization);
      await authorizeParent(access, target, null);
      const transferred = await inTransaction(ds, (db) => transferCollection(db, collection, target.id));
      return {
        status: 200,
        body: presentCollection(
          transferred,
          await permissionsOf(access, { kind: 'collection', collection: transferred }),
          urls,
        ),
      };
    },
  );
}
