/**
 * Integrations on the wire, as GitBook's objects, built without the HTTP layer: the API presents them
 * through api/presenters (which documents them with zod schemas), and the dispatch activities put them
 * in the `environment` an integration receives with each event.
 */
import type { Config } from '../config';
import type { OrganizationPermissions } from '../access/targets';
import { organizationJson, OrganizationJson } from '../organizations/wire';
import { Urls } from '../urls';
import type { Integration, IntegrationRuntime, IntegrationTarget, IntegrationVisibility } from '../../entities/Integration';
import type { Organization } from '../../entities/Organization';

type UrlsConfig = Pick<Config, 'publicBaseUrl' | 'appBaseUrl' | 'publishedBaseUrl'>;

export interface IntegrationUrls {
  location: string;
  /** The icon (a PNG), served by the API to anyone; null when the integration has none. */
  icon: string | null;
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
  contentSecurityPolicy: string | null;
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
export function integrationUrls(config: UrlsConfig, integration: Pick<Integration, 'name' | 'version' | 'iconKey'>): IntegrationUrls {
  const urls = new Urls(config);
  const base = `/integrations/${integration.name}`;
  const assets = urls.api(`${base}/assets`);
  const publicEndpoint = urls.api(`${base}/script.js`);
  return {
    location: urls.api(base),
    icon: integration.iconKey ? `${assets}/icon.png?v=${integration.version}` : null,
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
    previewImages: integration.previewImageKeys.map((_key, i) => `${urls.assets}/preview-${i}.png?v=${integration.version}`),
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
    contentSecurityPolicy: integration.contentSecurityPolicy,
  };
}
