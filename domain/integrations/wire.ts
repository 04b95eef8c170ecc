/**
 * Integrations on the wire: GitBook's Integration and installation objects, each with its one schema (which also
 * documents it in /v1/openapi.json) and its builder. The API presents them (api/presenters), and the dispatch
 * activities put them in the `environment` an integration receives with each event; both go through `toWire`.
 */

import type { Integration } from '../../entities/Integration';
import type { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import type { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import type { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import type { Organization } from '../../entities/Organization';
import type { Config } from '../../platform/config';
import { timestamp } from '../../platform/wire/common-fields';
import type { Presented } from '../../platform/wire/to-wire';
import { z } from '../../platform/wire/zod';
import type { OrganizationPermissions } from '../access/targets';
import { organizationJson, organizationSchema } from '../organizations/wire';
import { Urls } from '../urls';
import { scopesPendingApproval } from './granted-scopes';
import {
  INSTALLATION_SELECTIONS,
  INSTALLATION_STATUSES,
  INTEGRATION_RUNTIMES,
  INTEGRATION_TARGETS,
  INTEGRATION_VISIBILITIES,
} from './vocabulary';

type UrlsConfig = Pick<Config, 'publicBaseUrl' | 'appBaseUrl' | 'publishedBaseUrl'>;

export const integrationSchema = z
  .object({
    object: z.literal('integration').openapi({ description: 'always `integration`' }),
    name: z.string().openapi({
      description: 'unique name of the integration, as in its URLs (letters, digits, `-`, `_`, `.`; at most 100)',
    }),
    version: z.number().int().openapi({ description: 'published version: 1 at the first publish, one more at each' }),
    runtime: z.enum(INTEGRATION_RUNTIMES).openapi({ description: 'runtime the script is written for (default `v1`)' }),
    title: z.string().openapi({ description: 'display name (2 to 30 characters)' }),
    description: z.string().openapi({ description: 'one-line description (at most 100 characters)' }),
    summary: z.string().openapi({ description: 'long-form markdown description; empty when none was published' }),
    previewImages: z.array(z.string()).max(3).openapi({ description: 'URLs of the preview images' }),
    target: z.enum(INTEGRATION_TARGETS).openapi({
      description: 'where it can be installed: `organization`, `space`, `site`, or `all` of them (default)',
    }),
    verified: z
      .boolean()
      .openapi({ description: 'marked as verified by the platform; false for every new integration' }),
    visibility: z.enum(INTEGRATION_VISIBILITIES).openapi({
      description:
        '`public`: listed for everyone; `unlisted`: reachable by its name, never listed; `private`: only for members of the owner organization (default)',
    }),
    scopes: z
      .array(z.string())
      .openapi({ description: 'permission scopes its tokens ask for, e.g. `space:content:read`' }),
    categories: z.array(z.string()).openapi({ description: 'catalogue categories it is listed under' }),
    blocks: z.array(z.record(z.unknown())).openapi({
      description: 'ContentKit blocks it provides, as published: {id, title, description, icon, urlUnfurl, markdown}',
    }),
    contentSources: z.array(z.record(z.unknown())).openapi({
      description: 'content sources it provides, as published: {id, title, description, icon, configuration}',
    }),
    configurations: z.record(z.unknown()).openapi({
      description: 'configuration schemas by level (`account`, `space`, `site`), as published; empty when none',
    }),
    externalLinks: z
      .array(
        z.object({
          url: z.string().openapi({ description: 'http(s) URL of the link' }),
          label: z.string().openapi({ description: 'text shown for the link' }),
        }),
      )
      .openapi({ description: 'links to show with the integration (at most 5)' }),
    owner: organizationSchema,
    urls: z
      .object({
        location: z.string().openapi({ description: 'API URL of the integration' }),
        icon: z
          .string()
          .optional()
          .openapi({ description: 'the icon (PNG), served to anyone; absent when there is none' }),
        app: z.string().openapi({ description: 'URL of the integration in the app' }),
        assets: z.string().openapi({ description: 'where the icon and the preview images are served' }),
        publicEndpoint: z
          .string()
          .openapi({ description: 'the published script, served to anyone with the Content-Security-Policy' }),
        publicContentEndpoint: z.string().openapi({ description: 'GitBook 0.202: equals publicEndpoint' }),
      })
      .openapi({ description: "the integration's URLs" }),
    permissions: z
      .object({
        admin: z.boolean().openapi({
          description: 'whether the caller is an admin of the owner organization (may publish, unpublish, read events)',
        }),
      })
      .openapi({ description: "the caller's permissions on the integration" }),
    contentSecurityPolicy: z.string().optional().openapi({
      description: 'Content-Security-Policy header sent with the script, directives joined by `; `; absent when none',
    }),
  })
  .openapi('Integration', {
    description:
      'An integration: its published manifest (the latest version), where it can be installed, and its URLs.',
  });

export type IntegrationJson = Presented<typeof integrationSchema>;
export type IntegrationUrls = IntegrationJson['urls'];

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
    contentSecurityPolicy: integration.contentSecurityPolicy,
  };
}

const configurationSchema = z.record(z.unknown()).openapi({
  type: 'object',
  additionalProperties: true,
  description: 'configuration values set for the installation, by property name',
});
const externalIdsSchema = z
  .array(z.string())
  .max(5)
  .openapi({ description: 'external ids assigned by the integration' });
const publicEndpointSchema = z
  .string()
  .openapi({ description: "URL of the integration's published script (its urls.publicEndpoint)" });
const publicContentEndpointSchema = z
  .string()
  .openapi({ description: 'the same URL as publicEndpoint (GitBook 0.202)' });
const statusSchema = z
  .enum(INSTALLATION_STATUSES)
  .openapi({ description: '`pending` while a required configuration is missing' });

export const installationSchema = z
  .object({
    id: z.string().openapi({ description: 'id of the installation' }),
    status: statusSchema,
    space_selection: z
      .enum(INSTALLATION_SELECTIONS)
      .openapi({ description: '`all`: every space of the organization; `selected`: the spaces it is installed on' }),
    site_selection: z
      .enum(INSTALLATION_SELECTIONS)
      .openapi({ description: '`all`: every site of the organization; `selected`: the sites it is installed on' }),
    spaces: z.number().int().openapi({ description: 'how many spaces it covers' }),
    configuration: configurationSchema,
    externalIds: externalIdsSchema,
    scopesPendingApproval: z.array(z.string()).openapi({
      description:
        'extension: scopes the integration now asks for that this organization has not granted; an admin grants them by repeating the install call',
    }),
    target: z
      .object({ organization: z.string().openapi({ description: 'id of the organization it is installed in' }) })
      .openapi({ description: 'where it is installed' }),
    urls: z
      .object({
        location: z.string().openapi({ description: 'API URL of the installation' }),
        app: z.string().openapi({ description: "URL of the integration's page of the organization in the app" }),
        publicEndpoint: publicEndpointSchema,
        publicContentEndpoint: publicContentEndpointSchema,
      })
      .openapi({ description: "the installation's URLs" }),
    createdAt: timestamp.openapi({ description: 'when it was installed (ISO 8601 date-time)' }),
    updatedAt: timestamp.openapi({ description: 'when it last changed (ISO 8601 date-time)' }),
  })
  .openapi('IntegrationInstallation', {
    description:
      "An integration installed on an organization: its status, configuration, and which of the organization's spaces and sites it covers.",
  });

export type InstallationJson = Presented<typeof installationSchema>;

/** The fields a space's and a site's installation share. */
const contentInstallationShape = {
  integration: z.string().openapi({ description: 'the integration name' }),
  installation: z.string().openapi({ description: 'the installation id' }),
  status: statusSchema,
  configuration: configurationSchema,
  externalIds: externalIdsSchema,
  urls: z
    .object({
      location: z.string().openapi({ description: 'API URL of this installation on the space or site' }),
      publicEndpoint: publicEndpointSchema,
      publicContentEndpoint: publicContentEndpointSchema,
    })
    .openapi({ description: "the installation's URLs" }),
};

/**
 * A space's (site's) installation as the integration environment carries it: the space (site) by its id. The API's
 * schema extends it, widening `space` (`site`) to the object it expands on `extended=true`.
 */
export const spaceInstallationIdSchema = z.object({
  ...contentInstallationShape,
  space: z.string().openapi({ description: 'id of the space' }),
});
export const siteInstallationIdSchema = z.object({
  ...contentInstallationShape,
  site: z.string().openapi({ description: 'id of the site' }),
});

type ContentInstallationJson = Omit<Presented<typeof spaceInstallationIdSchema>, 'space'>;

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
