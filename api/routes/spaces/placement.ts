/** Moving a space among collections of its organization, and transferring it to another organization and/or collection. */
import { authorize } from '../../../domain/access/authorize';
import { moveSpace, transferSpace, transferTarget } from '../../../domain/spaces/placement';
import { inTransaction } from '../../../platform/db/transactions';
import { authorizeParent } from '../../authorize-parent';
import { loadOrganization, loadSpace } from '../../loaders';
import type { ApiBuilder } from '../../operation';
import { spaceSchema } from '../../presenters/space';
import { Urls } from '../../presenters/urls';
import { moveBody, toPlacement } from '../collections/schema';
import { presentSpaceFor } from './present';
import { spaceIdParams, transferSpaceBody } from './schema';

export function spacePlacementRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/move',
      operationId: 'moveSpace',
      description:
        'Moves a space under another collection (`parent`, null for the organization root) and/or next to a sibling (`position`). Needs `admin` on the space and, when the parent changes, `create` on the new parent (or `createContent` on the organization for its root).',
      tags: ['spaces'],
      summary: 'Move a space under another collection (null: organization root) and/or next to a sibling',
      params: spaceIdParams,
      body: moveBody,
      responses: { 200: { description: 'moved', schema: spaceSchema } },
    },
    async ({ params, body, access }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'admin');
      const parentId = body.parent === undefined ? space.parentId : body.parent;
      // Reordering among the same siblings needs nothing more; a new parent must accept new content.
      if (parentId !== space.parentId)
        await authorizeParent(access, await loadOrganization(access, space.organizationId), parentId);
      const moved = await inTransaction(ds, (db) => moveSpace(db, space, parentId, toPlacement(body.position)));
      return { status: 200, body: await presentSpaceFor(access, moved, urls) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/transfer',
      operationId: 'transferSpace',
      description:
        "Moves a space to another organization (its root, or the collection `parent`) and/or to another collection. Leaving the organization drops the roles given on the space and takes it out of the old organization's sites. Needs `admin` on the space and `create` where it lands (`createContent` on the organization for a root).",
      tags: ['spaces'],
      summary: 'Transfer a space to another organization (its root, or `parent`) and/or another collection',
      params: spaceIdParams,
      body: transferSpaceBody,
      responses: { 200: { description: 'transferred', schema: spaceSchema } },
    },
    async ({ params, body, access }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'admin');
      const target = transferTarget(space, body);
      await authorizeParent(access, await loadOrganization(access, target.organizationId), target.parentId);
      const transferred = await inTransaction(ds, (db) => transferSpace(db, space, target));
      return { status: 200, body: await presentSpaceFor(access, transferred, urls) };
    },
  );
}
