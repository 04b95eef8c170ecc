/**
 * How the installation routes reach what they act on, through the one authorization function:
 * the integration by name (a tombstone or one the caller may not see is a 404), its installation
 * (seen by the integration owner's admins and the installing organization's members, else a 404
 * that names the integration when the caller does not see that either, so a private integration's
 * name is never confirmed), and the space or site of a space or site installation (of the
 * installation's organization, else 404).
 */
import { authorize, permissionsOf } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import type { IntegrationInstallationPermissions, IntegrationPermissions } from '../../../domain/access/targets';
import { forbidden, notFound } from '../../../domain/errors';
import type { ContentKind } from '../../../domain/integrations/content-installations';
import { lockInstallation } from '../../../domain/integrations/installations';
import { loadIntegrationByName } from '../../../domain/integrations/integrations';
import type { Integration } from '../../../entities/Integration';
import { IntegrationInstallation } from '../../../entities/IntegrationInstallation';
import { Site } from '../../../entities/Site';
import { Space } from '../../../entities/Space';
import { findOneWhere } from '../../../platform/db/rows';

/** The integration, the caller holding `action` on it (404 when they do not see it, 403 without the action). */
export async function integrationFor(
  access: AccessContext,
  name: string,
  action: keyof IntegrationPermissions,
): Promise<Integration> {
  const integration = await loadIntegrationByName(access.db, name);
  if (!integration) throw notFound('integration');
  await authorize(access, { kind: 'integration', integration }, action);
  return integration;
}

export interface InstallationRef {
  integrationName: string;
  installationId: string;
}

export interface FoundInstallation {
  integration: Integration;
  installation: IntegrationInstallation;
}

/**
 * The installation the caller sees, or null when there is none for them (the caller decides between
 * the 404 and a DELETE's 204). `lock`: held for the rest of the caller's transaction.
 */
export async function findVisibleInstallation(
  access: AccessContext,
  ref: InstallationRef,
  lock = false,
): Promise<FoundInstallation | null> {
  const integration = await loadIntegrationByName(access.db, ref.integrationName);
  if (!integration) return null;
  const installation = lock
    ? await lockInstallation(access.db, integration.id, ref.installationId)
    : await access.db.findOneBy(IntegrationInstallation, { id: ref.installationId, integrationId: integration.id });
  if (
    !installation ||
    !(await permissionsOf(access, { kind: 'integrationInstallation', integration, installation })).view
  )
    return null;
  return { integration, installation };
}

/** The installation, the caller holding `action` on it: 404 when they do not see it, 403 without the action. */
export async function installationFor(
  access: AccessContext,
  ref: InstallationRef,
  action: keyof IntegrationInstallationPermissions,
  lock = false,
): Promise<FoundInstallation> {
  const found = await findVisibleInstallation(access, ref, lock);
  if (!found) {
    const integration = await loadIntegrationByName(access.db, ref.integrationName);
    const seen = !!integration && (await permissionsOf(access, { kind: 'integration', integration })).view;
    throw notFound(seen ? 'installation' : 'integration');
  }
  await authorize(access, { kind: 'integrationInstallation', ...found }, action, 'installation');
  return found;
}

/** A live space or a site of the installation's organization, by id; null when there is none. */
export async function findContentOf(
  access: AccessContext,
  kind: ContentKind,
  installation: IntegrationInstallation,
  contentId: string,
): Promise<Space | Site | null> {
  return kind === 'space'
    ? findOneWhere(access.db, Space, 'x.id = ? AND x.organizationId = ? AND x.deletedAt IS NULL', [
        contentId,
        installation.organizationId,
      ])
    : findOneWhere(access.db, Site, 'x.id = ? AND x.organizationId = ?', [contentId, installation.organizationId]);
}

/**
 * The caller may install the integration on the space or site, or change or remove that installation:
 * `installIntegration` there (space admins, site admins); 404 when they do not see it, else 403.
 * `installationSeen`: the caller already reads the installation on it (the integration's own token
 * does, without seeing the space or site), so a refusal is a 403, never a 404 that would deny it.
 */
export async function authorizeInstallsOn(
  access: AccessContext,
  kind: ContentKind,
  content: Space | Site,
  installationSeen = false,
): Promise<void> {
  const target =
    kind === 'space'
      ? { kind: 'space' as const, space: content as Space }
      : { kind: 'site' as const, site: content as Site };
  if (!installationSeen) {
    await authorize(access, target, 'installIntegration');
    return;
  }
  if (!(await permissionsOf(access, target)).installIntegration)
    throw forbidden(`you need the "installIntegration" permission on this ${kind}`);
}
