/** GitBook's Integration object: built by domain/integrations/wire.ts, documented here. */
import { z } from 'zod';
import type { IntegrationPermissions, OrganizationPermissions } from '../../domain/access/targets';
import {
  INTEGRATION_RUNTIMES,
  INTEGRATION_TARGETS,
  INTEGRATION_VISIBILITIES,
} from '../../domain/integrations/vocabulary';
import { integrationJson } from '../../domain/integrations/wire';
import type { Integration } from '../../entities/Integration';
import type { Organization } from '../../entities/Organization';
import type { Config } from '../../platform/config';
import { organizationSchema } from './organization';
import type { Presented } from './wire';

export const integrationSchema = z
  .object({
    object: z.literal('integration'),
    name: z.string(),
    version: z.number().int(),
    runtime: z.enum(INTEGRATION_RUNTIMES),
    title: z.string(),
    description: z.string(),
    summary: z.string(),
    previewImages: z.array(z.string()).max(3).openapi({ description: 'URLs of the preview images' }),
    target: z.enum(INTEGRATION_TARGETS),
    verified: z.boolean(),
    visibility: z.enum(INTEGRATION_VISIBILITIES),
    scopes: z.array(z.string()),
    categories: z.array(z.string()),
    blocks: z.array(z.record(z.unknown())),
    contentSources: z.array(z.record(z.unknown())),
    configurations: z.record(z.unknown()),
    externalLinks: z.array(z.object({ url: z.string(), label: z.string() })),
    owner: organizationSchema,
    urls: z.object({
      location: z.string(),
      icon: z
        .string()
        .optional()
        .openapi({ description: 'the icon (PNG), served to anyone; absent when there is none' }),
      app: z.string(),
      assets: z.string(),
      publicEndpoint: z
        .string()
        .openapi({ description: 'the published script, served to anyone with the Content-Security-Policy' }),
      publicContentEndpoint: z.string(),
    }),
    permissions: z.object({ admin: z.boolean() }),
    contentSecurityPolicy: z.string().optional(),
  })
  .openapi('Integration');

export function presentIntegration(
  integration: Integration,
  owner: Organization,
  permissions: IntegrationPermissions,
  ownerPermissions: OrganizationPermissions,
  config: Config,
): Presented<typeof integrationSchema> {
  return integrationJson(integration, owner, permissions, config, ownerPermissions) as Presented<
    typeof integrationSchema
  >;
}
