/**
 * Integration and installation rows written straight to the database, for the tests of integration
 * tokens: they need an integration with given scopes installed on given spaces and sites, not the
 * publish and install operations (tested in their own files).
 */
import { randomBytes } from 'crypto';
import type { DataSource } from 'typeorm';
import { newId } from '../../domain/ids';
import { ensureUser } from '../../domain/users/users';
import { Integration } from '../../entities/Integration';
import { InstallationSelection, IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import { inTransaction } from '../../platform/db/transactions';
import { unique } from '../factories';

export async function insertIntegration(
  ds: DataSource,
  ownerOrganizationId: string,
  scopes: string[],
  fields: Partial<Integration> = {},
): Promise<Integration> {
  return inTransaction(ds, async (db) => {
    const name = unique('integration-');
    const bot = await ensureUser(db, `${name}@integrations.example.test`, name);
    const now = new Date();
    const integration: Integration = {
      id: newId(),
      name,
      ownerOrganizationId,
      botUserId: bot.id,
      version: 1,
      runtime: 'v2',
      title: 'Token test',
      description: '',
      summary: '',
      visibility: 'private',
      target: 'all',
      verified: false,
      scopes,
      categories: [],
      blocks: [],
      contentSources: [],
      externalLinks: [],
      configurations: {},
      contentSecurityPolicy: null,
      scriptKey: `integrations/${name}/script.js`,
      iconKey: null,
      previewImageKeys: [],
      secretsCiphertext: null,
      signingSecret: randomBytes(32).toString('hex'),
      devTunnelUrl: null,
      devAll: false,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
      rowVersion: 1,
      ...fields,
    };
    await db.insert(Integration, { ...integration } as never);
    return integration;
  });
}

export async function insertInstallation(
  ds: DataSource,
  integration: Integration,
  organizationId: string,
  selection: { spaces?: InstallationSelection; sites?: InstallationSelection } = {},
): Promise<IntegrationInstallation> {
  const now = new Date();
  const installation: IntegrationInstallation = {
    id: newId(),
    integrationId: integration.id,
    organizationId,
    status: 'active',
    spaceSelection: selection.spaces ?? 'all',
    siteSelection: selection.sites ?? 'all',
    configuration: {},
    externalIds: [],
    grantedScopes: [...integration.scopes],
    signingSecret: randomBytes(32).toString('hex'),
    createdById: null,
    createdAt: now,
    updatedAt: now,
  };
  await ds.manager.insert(IntegrationInstallation, { ...installation } as never);
  return installation;
}

/** Installs the installation on one of its organization's spaces or sites (a `selected` selection's member). */
export async function insertContentInstallation(
  ds: DataSource,
  installation: IntegrationInstallation,
  target: { spaceId: string } | { siteId: string },
): Promise<void> {
  const now = new Date();
  const row = {
    installationId: installation.id,
    integrationId: installation.integrationId,
    organizationId: installation.organizationId,
    status: 'active' as const,
    configuration: {},
    externalIds: [],
    createdAt: now,
    updatedAt: now,
  };
  if ('spaceId' in target)
    await ds.manager.insert(IntegrationSpaceInstallation, { ...row, spaceId: target.spaceId } as never);
  else await ds.manager.insert(IntegrationSiteInstallation, { ...row, siteId: target.siteId } as never);
}
