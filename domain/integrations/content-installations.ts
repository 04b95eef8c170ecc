/**
 * An installation extended to one space or one site of its organization (GitBook's space and site
 * installations): install (once per space or site), update (external ids, configuration) and
 * uninstall, each recording its `space_installation_*` or `site_installation_*` event in the caller's
 * transaction. Spaces and sites follow the same rules, so one set of functions serves both kinds.
 */

import type { QueryDeepPartialEntity } from 'typeorm';
import { Integration } from '../../entities/Integration';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import type { WorkTx } from '../../platform/db/after-commit';
import { Db, insertKeepingValues, isDuplicateKey } from '../../platform/db/transactions';
import { badRequest } from '../errors';
import { deletedFields, setupFields } from './event-payloads';
import { recordIntegrationEvent } from './events';
import { Configuration, checkConfiguration, statusFor } from './installation-configuration';

export type ContentKind = 'space' | 'site';
export type ContentInstallation = IntegrationSpaceInstallation | IntegrationSiteInstallation;

const ENTITIES = { space: IntegrationSpaceInstallation, site: IntegrationSiteInstallation } as const;
const KEYS = { space: 'spaceId', site: 'siteId' } as const;

/** The space's or site's id of a row of that kind. */
export function contentIdOf(kind: ContentKind, row: ContentInstallation): string {
  return kind === 'space' ? (row as IntegrationSpaceInstallation).spaceId : (row as IntegrationSiteInstallation).siteId;
}

/** The row of the installation on that space or site; `lock` holds it for the rest of the transaction. */
export function findContentInstallation(
  db: Db,
  kind: ContentKind,
  installationId: string,
  contentId: string,
  lock = false,
): Promise<ContentInstallation | null> {
  return db.findOne<ContentInstallation>(ENTITIES[kind], {
    where: { installationId, [KEYS[kind]]: contentId },
    ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
}

/**
 * Installs on the space or site (`field`: the body field naming it, for a 400), or finds the row it
 * already has. The integration's `target` must allow that kind.
 */
export async function installOnContent(
  db: WorkTx,
  kind: ContentKind,
  integration: Integration,
  installation: IntegrationInstallation,
  contentId: string,
  field: string,
): Promise<{ row: ContentInstallation; created: boolean }> {
  if (integration.target !== 'all' && integration.target !== kind)
    throw badRequest(
      `${field}: this integration installs on ${integration.target === 'organization' ? 'organizations' : `${integration.target}s`} only`,
    );
  const existing = await findContentInstallation(db, kind, installation.id, contentId);
  if (existing) return { row: existing, created: false };
  const now = new Date();
  const configuration: Configuration = {};
  const row = {
    installationId: installation.id,
    [KEYS[kind]]: contentId,
    integrationId: integration.id,
    organizationId: installation.organizationId,
    status: statusFor(integration, kind, configuration),
    configuration,
    externalIds: [],
    createdAt: now,
    updatedAt: now,
  } as unknown as ContentInstallation;
  try {
    await insertKeepingValues<ContentInstallation>(db, ENTITIES[kind], row);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return { row: (await findContentInstallation(db, kind, installation.id, contentId))!, created: false };
  }
  await recordIntegrationEvent(db, {
    integration,
    installation,
    type: `${kind}_installation_setup`,
    fields: setupFields(row.status),
    [KEYS[kind]]: contentId,
  });
  return { row, created: true };
}

export interface ContentInstallationPatch {
  externalIds?: string[];
  /** replaces the whole configuration */
  configuration?: Configuration;
}

/** Applies the patch to the (locked) row; a configuration or status change records the setup event with the previous state. */
export async function updateContentInstallation(
  db: WorkTx,
  kind: ContentKind,
  integration: Integration,
  installation: IntegrationInstallation,
  row: ContentInstallation,
  patch: ContentInstallationPatch,
): Promise<ContentInstallation> {
  const previous = { status: row.status, configuration: row.configuration };
  const changes: Partial<ContentInstallation> = { updatedAt: new Date() };
  if (patch.externalIds !== undefined) changes.externalIds = patch.externalIds;
  if (patch.configuration !== undefined) {
    checkConfiguration(integration, kind, patch.configuration);
    changes.configuration = patch.configuration;
    if (row.status !== 'paused') changes.status = statusFor(integration, kind, patch.configuration);
  }
  await db.update(
    ENTITIES[kind],
    { installationId: row.installationId, [KEYS[kind]]: contentIdOf(kind, row) },
    changes as QueryDeepPartialEntity<ContentInstallation>,
  );
  const updated = Object.assign(row, changes);
  if (
    updated.status !== previous.status ||
    JSON.stringify(updated.configuration) !== JSON.stringify(previous.configuration)
  ) {
    await recordIntegrationEvent(db, {
      integration,
      installation,
      type: `${kind}_installation_setup`,
      fields: setupFields(updated.status, previous),
      [KEYS[kind]]: contentIdOf(kind, updated),
    });
  }
  return updated;
}

/** Uninstalls from the space or site, recording `<kind>_installation_deleted` with the previous configuration. */
export async function uninstallFromContent(
  db: WorkTx,
  kind: ContentKind,
  integration: Integration,
  installation: IntegrationInstallation,
  row: ContentInstallation,
): Promise<void> {
  await recordIntegrationEvent(db, {
    integration,
    installation,
    type: `${kind}_installation_deleted`,
    fields: deletedFields(row.configuration),
    [KEYS[kind]]: contentIdOf(kind, row),
  });
  await db.delete(ENTITIES[kind], { installationId: row.installationId, [KEYS[kind]]: contentIdOf(kind, row) });
}

/** A site being deleted: every installation on it is uninstalled, each with its `site_installation_deleted` event. */
export async function uninstallAllFromSite(db: WorkTx, siteId: string): Promise<void> {
  const rows = await db.find(IntegrationSiteInstallation, { where: { siteId }, lock: { mode: 'pessimistic_write' } });
  for (const row of rows) {
    const installation = await db.findOneByOrFail(IntegrationInstallation, { id: row.installationId });
    const integration = await db.findOneByOrFail(Integration, { id: row.integrationId });
    await uninstallFromContent(db, 'site', integration, installation, row);
  }
}
