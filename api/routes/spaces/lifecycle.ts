/**
 * Soft deletion, restore and duplication of spaces. Deletion asks for the space-purge job in its
 * transaction and starts the workflow after the commit; if Temporal is unreachable the answer is
 * still 204 and the reconciler (or a retried DELETE) starts it later (docs/jobs.md).
 */
import { authorize, permissionsOf } from '../../../domain/access/authorize';
import { lockJobRow } from '../../../domain/jobs/job-lifecycle';
import { lockSpace, restoreSpace, softDeleteSpace } from '../../../domain/spaces/deletion';
import { spacePurgeJob } from '../../../domain/spaces/purge-job';
import { duplicateSpace } from '../../../domain/spaces/spaces';
import { inTransaction } from '../../../platform/db/transactions';
import { authorizeParent } from '../../authorize-parent';
import { loadOrganization, loadSpace } from '../../loaders';
import { requireMatch, versionTag } from '../../middleware/conditional';
import type { ApiBuilder } from '../../operation';
import { spaceSchema } from '../../presenters/space';
import { Urls } from '../../presenters/urls';
import { presentSpaceFor } from './present';
import { spaceIdParams } from './schema';

export function spaceLifecycleRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  api.op(
    {
      method: 'delete',
      path: '/v1/spaces/{spaceId}',
      operationId: 'deleteSpace',
      description:
        'Soft-deletes a space: it disappears from lists and reads, and can be restored until the retention period (`SPACE_RETENTION_SECONDS`, 7 days by default) ends. Needs `admin` on the space; one the caller cannot see answers 204 with no change. Starts the space purge job, which removes the space for good when the period ends; follow it with `node dist/cli/main.js jobs watch <spaceId>`.',
      tags: ['spaces'],
      summary: 'Soft-delete a space; it is removed permanently after the retention period unless restored',
      params: spaceIdParams,
      responses: {
        204: { description: 'deleted (also when it already was, does not exist, or is not visible to the caller)' },
        412: { description: 'the `If-Match` ETag is not the current one, or the space is gone (extension)' },
      },
    },
    async ({ params, access: caller, req }) => {
      // One transaction: the space row is locked, checked and written, and the purge asked for (its start
      // follows the commit; it also repairs an earlier deletion whose workflow start was lost).
      await inTransaction(api.deps, async (db) => {
        const access = caller.within(db);
        const space = await lockJobRow(db, spacePurgeJob, params.spaceId);
        const permissions = space && (await permissionsOf(access, { kind: 'space', space }));
        // with If-Match, a space that is gone (or never was visible) is a 412, as RFC 9110 says
        requireMatch(
          req,
          space && permissions?.view && !space.deletedAt ? versionTag(space.version, permissions) : null,
        );
        // nothing the caller can see: 204 and no change, alike for unknown ids and other organizations' spaces
        if (!space || !permissions?.view) return;
        await authorize(access, { kind: 'space', space }, 'admin');
        await softDeleteSpace(db, space);
      });
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/restore',
      operationId: 'restoreSpace',
      description:
        'Brings back a soft-deleted space within its retention period and withdraws its pending purge job; past the period it is a 404. Needs `admin` on the space. A space that is not deleted is returned unchanged.',
      tags: ['spaces'],
      summary:
        'Restore a space deleted within the retention period (a space that is not deleted is returned unchanged)',
      params: spaceIdParams,
      responses: { 200: { description: 'restored', schema: spaceSchema } },
    },
    async ({ params, access }) => {
      const ticket = await inTransaction(api.deps, async (db) => {
        const space = await lockSpace(db, params.spaceId);
        await authorize(access.within(db), { kind: 'space', space }, 'admin');
        // the withdrawn purge's cancel follows the commit; one that misses it finds its generation superseded
        return restoreSpace(db, space, config.spaceRetentionSeconds);
      });
      return { status: 200, body: await presentSpaceFor(access, ticket.row, urls) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/duplicate',
      operationId: 'duplicateSpace',
      description:
        'Creates a copy of the space right after it under the same parent: its settings and its current content, titled with ` (copy)`. Needs `view` on the space and `create` on its parent collection (or `createContent` on the organization at the root).',
      tags: ['spaces'],
      summary: 'Duplicate a space next to the original (answers 201 with Location: a new space is created)',
      params: spaceIdParams,
      responses: { 201: { description: 'duplicated', schema: spaceSchema } },
    },
    async ({ params, access, caller }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'view');
      await authorizeParent(access, await loadOrganization(access, space.organizationId), space.parentId);
      const copy = await inTransaction(ds, (db) => duplicateSpace(db, space, caller.userId));
      return {
        status: 201,
        headers: { Location: urls.api(`/spaces/${copy.id}`) },
        body: await presentSpaceFor(access, copy, urls),
      };
    },
  );
}
