/**
 * The two writes that change what an installation was granted: an admin's approval of the scopes published
 * since, and a republish that drops scopes (the rule: granted-scopes.ts).
 */

import type { QueryDeepPartialEntity } from 'typeorm';
import type { Integration } from '../../entities/Integration';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import { setupFields } from './event-payloads';
import { recordIntegrationEvent } from './events';
import { effectiveScopes, scopesPendingApproval } from './granted-scopes';

/**
 * An admin of the installing organization repeated the install call: the installation is granted the
 * published scopes, and installation_setup tells the integration. Nothing changes (and no event) when
 * nothing was pending. The caller holds the installation's row lock or just read it in its transaction.
 */
export async function grantPublishedScopes(
  db: WorkTx,
  integration: Integration,
  installation: IntegrationInstallation,
): Promise<IntegrationInstallation> {
  if (!scopesPendingApproval(integration.scopes, installation.grantedScopes).length) return installation;
  const changes = { grantedScopes: [...integration.scopes], updatedAt: new Date() };
  await db.update(
    IntegrationInstallation,
    { id: installation.id },
    changes as QueryDeepPartialEntity<IntegrationInstallation>,
  );
  const updated = Object.assign(installation, changes);
  await recordIntegrationEvent(db, {
    integration,
    installation: updated,
    type: 'installation_setup',
    fields: setupFields(updated.status),
  });
  return updated;
}

/**
 * A republish dropped scopes: every installation's grant loses them too, so asking for them again later
 * waits for each organization's approval once more.
 */
export async function withdrawUnpublishedGrants(db: Db, integrationId: string, published: string[]): Promise<void> {
  const installations = await db.find(IntegrationInstallation, {
    where: { integrationId },
    select: { id: true, grantedScopes: true },
    lock: { mode: 'pessimistic_write' },
  });
  for (const installation of installations) {
    const kept = effectiveScopes(published, installation.grantedScopes);
    if (kept.length === installation.grantedScopes.length) continue;
    await db.update(IntegrationInstallation, { id: installation.id }, {
      grantedScopes: kept,
    } as QueryDeepPartialEntity<IntegrationInstallation>);
  }
}
