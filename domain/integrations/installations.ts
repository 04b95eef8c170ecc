/**
 * Installations of an integration on organizations: install (once per organization),
 * update (external ids, configuration, which spaces and sites it covers) and uninstall. Every change
 * records its event for the integration in the caller's transaction (installation_setup with the
 * previous state, installation_deleted).
 */

import { randomBytes } from 'crypto';
import type { QueryDeepPartialEntity } from 'typeorm';
import { Integration } from '../../entities/Integration';
import { InstallationSelection, IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import type { Organization } from '../../entities/Organization';
import type { WorkTx } from '../../platform/db/after-commit';
import { Db, insertKeepingValues, isDuplicateKey } from '../../platform/db/transactions';
import { forbidden } from '../errors';
import { newId } from '../ids';
import { deletedFields, setupFields } from './event-payloads';
import { recordIntegrationEvent } from './events';
import { Configuration, checkConfiguration, statusFor } from './installation-configuration';
import { grantPublishedScopes } from './scope-approval';

export interface InstallResult {
  installation: IntegrationInstallation;
  /** false when the organization already had it (answered as is, 200) */
  created: boolean;
}

/**
 * Installs the integration on the organization, granting the scopes published now, or finds the
 * installation it already has (also when a concurrent request just made it: the unique index decides)
 * and grants it the scopes published since. A private integration installs only in
 * its owner organization. A new installation covers the spaces and sites it is then given (`selected`).
 */
export async function installIntegration(
  db: WorkTx,
  integration: Integration,
  organization: Organization,
  actorUserId: string,
): Promise<InstallResult> {
  // read under a shared lock: a publish that makes it private holds the row while it counts installations
  const { visibility } = await db
    .createQueryBuilder(Integration, 'i')
    .setLock('pessimistic_read')
    .select(['i.id', 'i.visibility'])
    .where('i.id = :id', { id: integration.id })
    .getOneOrFail();
  if (visibility === 'private' && organization.id !== integration.ownerOrganizationId) {
    throw forbidden('a private integration installs only in the organization that publishes it');
  }
  const existing = await db.findOneBy(IntegrationInstallation, {
    integrationId: integration.id,
    organizationId: organization.id,
  });
  // the install call repeated by an admin: approves the scopes published since (scope-approval.ts)
  if (existing) return { installation: await approveScopes(db, integration, existing), created: false };
  const now = new Date();
  const configuration: Configuration = {};
  const installation: IntegrationInstallation = {
    id: newId(),
    integrationId: integration.id,
    organizationId: organization.id,
    status: statusFor(integration, 'account', configuration),
    spaceSelection: 'selected',
    siteSelection: 'selected',
    configuration,
    externalIds: [],
    grantedScopes: [...integration.scopes],
    signingSecret: randomBytes(32).toString('hex'),
    createdById: actorUserId,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await insertKeepingValues(db, IntegrationInstallation, installation);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const concurrent = await db.findOneByOrFail(IntegrationInstallation, {
      integrationId: integration.id,
      organizationId: organization.id,
    });
    return { installation: await approveScopes(db, integration, concurrent), created: false };
  }
  await recordIntegrationEvent(db, {
    integration,
    installation,
    type: 'installation_setup',
    fields: setupFields(installation.status),
  });
  return { installation, created: true };
}

/**
 * Grants the published scopes to an installation found by its key, under its row lock. Locked by its id,
 * not by (integration, organization): a locking read of a key that may not exist yet takes a gap lock, and
 * two concurrent first installs would then deadlock on their inserts.
 */
async function approveScopes(
  db: WorkTx,
  integration: Integration,
  found: IntegrationInstallation,
): Promise<IntegrationInstallation> {
  const locked = await lockInstallation(db, integration.id, found.id);
  return locked ? grantPublishedScopes(db, integration, locked) : found;
}

/** The installation row, locked for the rest of the transaction (so each update sees the one before); null when gone. */
export function lockInstallation(
  db: Db,
  integrationId: string,
  installationId: string,
): Promise<IntegrationInstallation | null> {
  return db.findOne(IntegrationInstallation, {
    where: { id: installationId, integrationId },
    lock: { mode: 'pessimistic_write' },
  });
}

export interface InstallationPatch {
  externalIds?: string[];
  /** replaces the whole configuration */
  configuration?: Configuration;
  spaceSelection?: InstallationSelection;
  siteSelection?: InstallationSelection;
}

/**
 * Applies the patch to the (locked) installation; a new configuration sets the status again. An
 * installation_setup event with the previous status and configuration is recorded when either changed.
 */
export async function updateInstallation(
  db: WorkTx,
  integration: Integration,
  installation: IntegrationInstallation,
  patch: InstallationPatch,
): Promise<IntegrationInstallation> {
  const previous = { status: installation.status, configuration: installation.configuration };
  const changes: Partial<IntegrationInstallation> = { updatedAt: new Date() };
  if (patch.externalIds !== undefined) changes.externalIds = patch.externalIds;
  if (patch.spaceSelection !== undefined) changes.spaceSelection = patch.spaceSelection;
  if (patch.siteSelection !== undefined) changes.siteSelection = patch.siteSelection;
  if (patch.configuration !== undefined) {
    checkConfiguration(integration, 'account', patch.configuration);
    changes.configuration = patch.configuration;
    // a paused installation stays paused whatever its configuration
    if (installation.status !== 'paused') changes.status = statusFor(integration, 'account', patch.configuration);
  }
  await db.update(
    IntegrationInstallation,
    { id: installation.id },
    changes as QueryDeepPartialEntity<IntegrationInstallation>,
  );
  const updated = Object.assign(installation, changes);
  if (
    updated.status !== previous.status ||
    JSON.stringify(updated.configuration) !== JSON.stringify(previous.configuration)
  ) {
    await recordIntegrationEvent(db, {
      integration,
      installation: updated,
      type: 'installation_setup',
      fields: setupFields(updated.status, previous),
    });
  }
  return updated;
}

/** Uninstalls: its space and site installations go with it; one installation_deleted event says so. */
export async function uninstallIntegration(
  db: WorkTx,
  integration: Integration,
  installation: IntegrationInstallation,
): Promise<void> {
  await recordIntegrationEvent(db, {
    integration,
    installation,
    type: 'installation_deleted',
    fields: deletedFields(installation.configuration),
  });
  await db.delete(IntegrationSpaceInstallation, { installationId: installation.id });
  await db.delete(IntegrationSiteInstallation, { installationId: installation.id });
  await db.delete(IntegrationInstallation, { id: installation.id });
}

/**
 * Unpublishing: every installation of the integration is uninstalled, each with its event, in the
 * caller's transaction. The unpublishing user is not part of the events (GitBook's carry no actor).
 */
export async function uninstallAll(db: WorkTx, integration: Integration, _actorUserId: string): Promise<void> {
  const installations = await db.find(IntegrationInstallation, {
    where: { integrationId: integration.id },
    order: { createdAt: 'ASC', id: 'ASC' },
    lock: { mode: 'pessimistic_write' },
  });
  for (const installation of installations) await uninstallIntegration(db, integration, installation);
}
