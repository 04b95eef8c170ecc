/** Installations of integrations on organizations, spaces and sites: declared with their schemas in domain/integrations/wire.ts. */
import { z } from 'zod';
import {
  InstallationJson,
  installationJson,
  installationSchema,
  siteInstallationIdSchema,
  siteInstallationJson,
  spaceInstallationIdSchema,
  spaceInstallationJson,
} from '../../domain/integrations/wire';
import type { Integration } from '../../entities/Integration';
import type { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import type { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import type { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import type { Config } from '../../platform/config';
import type { Presented } from '../../platform/wire/to-wire';
import { PresentedSite, siteSchema } from './site';
import type { PresentedSpace } from './site-space';
import { spaceSchema } from './space';

export { installationSchema };

/** The environment's space installation, its `space` widened to the Space the API expands on `extended=true`. */
export const spaceInstallationSchema = spaceInstallationIdSchema
  .extend({
    space: z
      .union([z.string(), spaceSchema])
      .openapi({ description: 'the space id, or the Space with `extended=true`' }),
  })
  .openapi('IntegrationSpaceInstallation', {
    description:
      "An organization's installation of an integration, extended to one of its spaces, with that space's configuration.",
  });

/** The environment's site installation, its `site` widened to the Site the API expands on `extended=true`. */
export const siteInstallationSchema = siteInstallationIdSchema
  .extend({
    site: z.union([z.string(), siteSchema]).openapi({ description: 'the site id, or the Site with `extended=true`' }),
  })
  .openapi('IntegrationSiteInstallation', {
    description:
      "An organization's installation of an integration, extended to one of its sites, with that site's configuration.",
  });

export function presentInstallation(
  integration: Integration,
  installation: IntegrationInstallation,
  spaces: number,
  config: Config,
): InstallationJson {
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
