/** Installations of integrations on organizations, spaces and sites, as GitBook's objects (domain/integrations/wire.ts builds them). */
import { z } from 'zod';
import { installationJson, siteInstallationJson, spaceInstallationJson } from '../../domain/integrations/wire';
import type { Integration } from '../../entities/Integration';
import type { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import type { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import type { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import type { Config } from '../../platform/config';
import { timestamp } from './common';
import { PresentedSite, siteSchema } from './site';
import type { PresentedSpace } from './site-space';
import { spaceSchema } from './space';
import type { Presented } from './wire';

export const INSTALLATION_STATUSES = ['active', 'pending', 'paused'] as const;
export const INSTALLATION_SELECTIONS = ['all', 'selected'] as const;

const configurationSchema = z.record(z.unknown()).openapi({ type: 'object', additionalProperties: true });
const externalIdsSchema = z
  .array(z.string())
  .max(5)
  .openapi({ description: 'external ids assigned by the integration' });
const statusSchema = z
  .enum(INSTALLATION_STATUSES)
  .openapi({ description: '`pending` while a required configuration is missing' });

export const installationSchema = z
  .object({
    id: z.string(),
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
    target: z.object({ organization: z.string() }),
    urls: z.object({
      location: z.string(),
      app: z.string(),
      publicEndpoint: z.string(),
      publicContentEndpoint: z.string(),
    }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('IntegrationInstallation');

const contentInstallationShape = {
  integration: z.string().openapi({ description: 'the integration name' }),
  installation: z.string().openapi({ description: 'the installation id' }),
  status: statusSchema,
  configuration: configurationSchema,
  externalIds: externalIdsSchema,
  urls: z.object({ location: z.string(), publicEndpoint: z.string(), publicContentEndpoint: z.string() }),
};

export const spaceInstallationSchema = z
  .object({
    ...contentInstallationShape,
    space: z
      .union([z.string(), spaceSchema])
      .openapi({ description: 'the space id, or the Space with `extended=true`' }),
  })
  .openapi('IntegrationSpaceInstallation');

export const siteInstallationSchema = z
  .object({
    ...contentInstallationShape,
    site: z.union([z.string(), siteSchema]).openapi({ description: 'the site id, or the Site with `extended=true`' }),
  })
  .openapi('IntegrationSiteInstallation');

export function presentInstallation(
  integration: Integration,
  installation: IntegrationInstallation,
  spaces: number,
  config: Config,
): Presented<typeof installationSchema> {
  return installationJson(integration, installation, spaces, config);
}

/** `space`: the presented Space when expanded, else its id. */
export function presentSpaceInstallation(
  integration: Integration,
  row: IntegrationSpaceInstallation,
  space: PresentedSpace | null,
  config: Config,
): Presented<typeof spaceInstallationSchema> {
  const json = spaceInstallationJson(integration, row, config);
  return space ? { ...json, space } : json;
}

/** `site`: the presented Site when expanded, else its id. */
export function presentSiteInstallation(
  integration: Integration,
  row: IntegrationSiteInstallation,
  site: PresentedSite | null,
  config: Config,
): Presented<typeof siteInstallationSchema> {
  const json = siteInstallationJson(integration, row, config);
  return site ? { ...json, site } : json;
}
