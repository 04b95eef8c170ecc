/**
 * The events a space's changes send to the installations covering it (installation-queries.ts):
 * `space_content_updated` on every move of its head (edit, merge, import, template, translation),
 * `space_visibility_updated` when its visibility changes. Both are written in the change's transaction.
 */

import type { Revision } from '../../entities/Revision';
import type { Space } from '../../entities/Space';
import { User } from '../../entities/User';
import type { WorkTx } from '../../platform/db/after-commit';
import { contentUpdatedFields, eventUser, IntegrationEventType, visibilityUpdatedFields } from './event-payloads';
import { recordIntegrationEvent } from './events';
import { installationsCoveringSpace } from './installation-queries';

async function recordForSpace(
  db: WorkTx,
  space: Space,
  type: IntegrationEventType,
  fields: () => Promise<Record<string, unknown>>,
): Promise<void> {
  const coverage = await installationsCoveringSpace(db, space);
  if (!coverage.length) return;
  const built = await fields();
  for (const { integration, installation } of coverage) {
    await recordIntegrationEvent(db, { integration, installation, type, fields: built, spaceId: space.id });
  }
}

export async function recordSpaceContentUpdated(db: WorkTx, space: Space, revision: Revision): Promise<void> {
  await recordForSpace(db, space, 'space_content_updated', async () => {
    const author = revision.createdById ? await db.findOneBy(User, { id: revision.createdById }) : null;
    return contentUpdatedFields(revision.id, author ? [eventUser(author, db.services.config.publicBaseUrl)] : []);
  });
}

export async function recordSpaceVisibilityUpdated(
  db: WorkTx,
  space: Space,
  previousVisibility: string,
): Promise<void> {
  if (previousVisibility === space.visibility) return;
  await recordForSpace(db, space, 'space_visibility_updated', async () =>
    visibilityUpdatedFields(previousVisibility, space.visibility),
  );
}
