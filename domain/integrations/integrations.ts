/**
 * Integrations by name, and their removal. Unpublishing uninstalls the integration everywhere (each
 * installation gets its `installation_deleted` event) and leaves a tombstone (`deletedAt`) that no read
 * sees, until the last of those deliveries has ended and the tombstone is removed with its blobs.
 */

import { Integration } from '../../entities/Integration';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import { uninstallAll } from './installations';

/** The published integration with this name; null when there is none or it is a tombstone. */
export async function loadIntegrationByName(db: Db, name: string): Promise<Integration | null> {
  const integration = await db.findOneBy(Integration, { name });
  return integration && !integration.deletedAt ? integration : null;
}

/** The integration with this name, tombstones included, locked for the rest of the transaction. */
export function lockIntegrationByName(db: Db, name: string): Promise<Integration | null> {
  return db
    .getRepository(Integration)
    .createQueryBuilder('i')
    .setLock('pessimistic_write')
    .where('i.name = :name', { name })
    .getOne();
}

/** Uninstalls it from every organization (their events first), then makes it a tombstone. */
export async function unpublishIntegration(db: WorkTx, integration: Integration, actorUserId: string): Promise<void> {
  await uninstallAll(db, integration, actorUserId);
  const now = new Date();
  await db.update(Integration, { id: integration.id }, { deletedAt: now, updatedAt: now });
  integration.deletedAt = now;
}
