/**
 * Integrations on the wire, as GitBook's objects, built without the HTTP layer: the API presents them
 * through api/presenters (which documents them with zod schemas), and the dispatch activities put them
 * in the `environment` an integration receives with each event.
 */

import type {
  Integration,
  IntegrationRuntime,
  IntegrationTarget,
  IntegrationVisibility,
} from '../../entities/Integration';
import type {
  InstallationSelection,
  InstallationStatus,
  IntegrationInstallation,
} from '../../entities/IntegrationInstallation';
import type { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import type { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import type { Organization } from '../../entities/Organization';
import type { Config } from '../../platform/config';
import type { OrganizationPermissions } from '../access/targets';
import { OrganizationJson, organizationJson } from '../organizations/wire';
import { Urls } from '../urls';
import { present } from '../wire-fields';
import { scopesPendingApproval } from './granted-scopes';

type UrlsConfig = Pick<Config, 'publicBaseUrl' | 'appBaseUrl' | 'publishedBaseUrl'>;

export interface IntegrationUrls {
  location: string;
  /** The icon (a PNG), served by the API to anyone; left out when the integration has none. */
  icon?: string;
  app: string;
  /** Where the icon and the preview images are served. */
  assets: string;
  /** The published script, served to anyone with the integration's Content-Security-Policy. */
  publicEndpoint: string;
  /** GitBook 0.202: equals publicEndpoint (there is no separate content origin). */
  publicContentEndpoint: string;
}

export interface IntegrationJson {
  object: 'integration';
  name: string;
  version: number;
  runtime: IntegrationRuntime;
  title: string;
  description: string;
  summary: string;
  previewImages: string[];
  target: IntegrationTarget;
  verified: boolean;
  visibility: IntegrationVisibility;
  scopes: string[];
  categories: string[];
  blocks: unknown[];
  contentSources: unknown[];
  configurations: Record<string, unknown>;
  externalLinks: Array<{ url: string; label: string }>;
  owner: OrganizationJson;
  urls: IntegrationUrls;
  permissions: { admin: boolean };
  contentSecurityPolicy?: string;
}

/** A caller who is not a member of the owner organization (an integration's own environment). */
const OUTSIDER: OrganizationPermissions = {
  view: false,
  access: false,
  admin: false,
  ownTeam: false,
  createContent: false,
  createOpenAPISpec: false,
  ingestConversations: false,
  viewBilling: false,
  listMembers: false,
  listTeams: false,
  listIntegrations: false,
  listInstallations: false,
  installIntegration: false,
};

/** The integration's URLs; its assets carry `?v=<version>`, so a republished icon is never served from a cache. */
export function integrationUrls(
  config: UrlsConfig,
  integration: Pick<Integration, 'name' | 'version' | 'iconKey'>,
): IntegrationUrls {
  const urls = new Urls(config);
  const base = `/integrations/${integration.name}`;
  const assets = urls.api(`${base}/assets`);
  const publicEndpoint = urls.api(`${base}/script.js`);
  return {
    location: urls.api(base),
    ...present({ icon: integration.iconKey ? `${assets}/icon.png?v=${integration.version}` : null }),
    app: urls.app(base),
    assets,
    publicEndpoint,
    publicContentEndpoint: publicEndpoint,
  };
}

/**
 * GitBook's Integration object. `permissions` are the caller's on the integration, `ownerPermissions`
 * the caller's on the owner organization (none when left out, as for the integration itself).
 */
export function integrationJson(
  integration: Integration,
  owner: Organization,
  permissions: { admin: boolean },
  config: UrlsConfig,
  ownerPermissions: OrganizationPermissions = OUTSIDER,
): IntegrationJson {
  const urls = integrationUrls(config, integration);
  return {
    object: 'integration',
    name: integration.name,
    version: integration.version,
    runtime: integration.runtime,
    title: integration.title,
    description: integration.description,
    summary: integration.summary,
    previewImages: integration.previewImageKeys.map(
      (_key, i) => `${urls.assets}/preview-${i}.png?v=${integration.version}`,
    ),
    target: integration.target,
    verified: integration.verified,
    visibility: integration.visibility,
    scopes: integration.scopes,
    categories: integration.categories,
    blocks: integration.blocks,
    contentSources: integration.contentSources,
    configurations: integration.configurations,
    externalLinks: integration.externalLinks,
    owner: organizationJson(owner, ownerPermissions, new Urls(config)),
    urls,
    permissions: { admin: permissions.admin },
    ...present({ contentSecurityPolicy: integration.contentSecurityPolicy }),
  };
}

export interface InstallationUrls {
  location: string;
  app: string;
  /** The integration's public endpoint: the only one served (GitBook gives each installation a path of its own there). */
  publicEndpoint: string;
  /** GitBook 0.202: equals publicEndpoint. */
  publicContentEndpoint: string;
}

export interface InstallationJson {
  id: string;
  status: InstallationStatus;
  space_selection: InstallationSelection;
  site_selection: InstallationSelection;
  /** how many spaces it covers (installation-queries.ts) */
  spaces: number;
  configuration: Record<string, unknown>;
  externalIds: string[];
  /** extension: published scopes the organization has not granted yet (granted-scopes.ts) */
  scopesPendingApproval: string[];
  target: { organization: string };
  urls: InstallationUrls;
  createdAt: string;
  updatedAt: string;
}

/** GitBook's IntegrationInstallation: the integration installed on an organization. */
export function installationJson(
  integration: Integration,
  installation: IntegrationInstallation,
  spaces: number,
  config: UrlsConfig,
): InstallationJson {
  const urls = new Urls(config);
  const { publicEndpoint } = integrationUrls(config, integration);
  return {
    id: installation.id,
    status: installation.status,
    space_selection: installation.spaceSelection,
    site_selection: installation.siteSelection,
    spaces,
    configuration: installation.configuration,
    externalIds: installation.externalIds,
    scopesPendingApproval: scopesPendingApproval(integration.scopes, installation.grantedScopes),
    target: { organization: installation.organizationId },
    urls: {
      location: urls.api(`/integrations/${integration.name}/installations/${installation.id}`),
      app: urls.app(`/o/${installation.organizationId}/integrations/${integration.name}`),
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    createdAt: installation.createdAt.toISOString(),
    updatedAt: installation.updatedAt.toISOString(),
  };
}

export interface ContentInstallationJson {
  integration: string;
  installation: string;
  status: InstallationStatus;
  configuration: Record<string, unknown>;
  externalIds: string[];
  urls: { location: string; publicEndpoint: string; publicContentEndpoint: string };
}

function contentInstallationJson(
  integration: Integration,
  row: IntegrationSpaceInstallation | IntegrationSiteInstallation,
  path: string,
  config: UrlsConfig,
): ContentInstallationJson {
  const { publicEndpoint } = integrationUrls(config, integration);
  return {
    integration: integration.name,
    installation: row.installationId,
    status: row.status,
    configuration: row.configuration,
    externalIds: row.externalIds,
    urls: {
      location: new Urls(config).api(`/integrations/${integration.name}/installations/${row.installationId}/${path}`),
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
  };
}

/** GitBook's IntegrationSpaceInstallation with `space` as its id (the API expands it on `extended=true`). */
export function spaceInstallationJson(
  integration: Integration,
  row: IntegrationSpaceInstallation,
  config: UrlsConfig,
): ContentInstallationJson & { space: string } {
  return { ...contentInstallationJson(integration, row, `spaces/${row.spaceId}`, config), space: row.spaceId };
}

/** GitBook's IntegrationSiteInstallation with `site` as its id (the API expands it on `extended=true`). */
export function siteInstallationJson(
  integration: Integration,
  row: IntegrationSiteInstallation,
  config: UrlsConfig,
): ContentInstallationJson & { site: string } {
  return { ...contentInstallationJson(integration, row, `sites/${row.siteId}`, config), site: row.siteId };
}
