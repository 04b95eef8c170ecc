/**
 * Soft deletion, restore and duplication of spaces. Deletion commits first and starts the purge
 * workflow after; if Temporal is unreachable the answer is still 204 and the reconciler (or a retried
 * DELETE) starts it later (DESIGN §5).
 */
import { authorize } from '../../../domain/access/authorize';
import { inTransaction } from '../../../domain/db';
import { cancelSpacePurge, ensureSpacePurge } from '../../../domain/processes/space-purge';
import { restoreSpace, softDeleteSpace } from '../../../domain/spaces/deletion';
import { duplicateSpace } from '../../../domain/spaces/spaces';
import type { Space } from '../../../entities/Space';
import { authorizeParent } from '../../authorize-parent';
import { loadOrganization, loadSpace } from '../../loaders';
import type { ApiBuilder } from '../../operation';
import { spaceSchema } from '../../presenters/space';
import { Urls } from '../../presenters/urls';
import { presentSpaceFor } from './present';
import { spaceIdParams } from './schema';

export function spaceLifecycleRoutes(api: ApiBuilder): void {
  const { ds, config, temporal, logger } = api.deps;
  const urls = new Urls(config);

  async function startPurge(space: Space): Promise<void> {
    try {
      await ensureSpacePurge(temporal, ds, space);
    } catch (err) {
      logger.warn({ err, spaceId: space.id }, 'space purge workflow not started; the reconciler will start it');
    }
  }

  api.op(
    {
      method: 'delete', path: '/v1/spaces/{spaceId}', operationId: 'deleteSpace', tags: ['spaces'],
      summary: 'Soft-delete a space; it is removed permanently after the retention period unless restored',
      params: spaceIdParams,
      responses: { 204: { description: 'deleted (also when it already was)' } },
    },
    async ({ params, access }) => {
      const space = await loadSpace(access, params.spaceId, { includeDeleted: true });
      await authorize(access, { kind: 'space', space }, 'admin');
      if (!space.deletedAt) await inTransaction(ds, (db) => softDeleteSpace(db, space));
      // Also repairs an earlier deletion whose workflow start was lost.
      if (!space.purgeStartedAt) await startPurge(space);
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post', path: '/v1/spaces/{spaceId}/restore', operationId: 'restoreSpace', tags: ['spaces'],
      summary: 'Restore a space deleted within the retention period (a space that is not deleted is returned unchanged)',
      params: spaceIdParams,
      responses: { 200: { description: 'restored', schema: spaceSchema } },
    },
    async ({ params, access }) => {
      const space = await loadSpace(access, params.spaceId, { includeDeleted: true });
      await authorize(access, { kind: 'space', space }, 'admin');
      const wasDeleted = space.deletedAt !== null;
      const restored = await inTransaction(ds, (db) => restoreSpace(db, space, config.spaceRetentionSeconds));
      if (wasDeleted) {
        try {
          await cancelSpacePurge(temporal, restored.id);
        } catch (err) {
          // The workflow re-checks the row before purging and finds the space restored.
          logger.warn({ err, spaceId: restored.id }, 'space purge workflow not cancelled');
        }
      }
      return { status: 200, body: await presentSpaceFor(access, restored, urls) };
    },
  );

  api.op(
    {
      method: 'post', path: '/v1/spaces/{spaceId}/duplicate', operationId: 'duplicateSpace', tags: ['spaces'],
      summary: 'Duplicate a space next to the original (answers 201 with Location: a new space is created)',
      params: spaceIdParams,
      responses: { 201: { description: 'duplicated', schema: spaceSchema } },
    },
    async ({ params, access, caller }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'view');
      await authorizeParent(access, await loadOrganization(access, space.organizationId), space.parentId);
      const copy = await inTransaction(ds, (db) => duplicateSpace(db, space, caller.userId));
      return { status: 201, headers: { Location: urls.api(`/spaces/${copy.id}`) }, body: await presentSpaceFor(access, copy, urls) };
    },
  );
}
