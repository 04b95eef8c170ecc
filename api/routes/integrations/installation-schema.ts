/** Request schemas of installations on organizations, spaces and sites. */
import { z } from 'zod';
import { INSTALLATION_SELECTIONS } from '../../../domain/integrations/vocabulary';
import { paginationQuery, queryBoolean } from '../../query';
import { nonEmpty, pathId, resourceId, text } from '../../schemas';
import { integrationNameParams } from './schema';

export const installationParams = {
  ...integrationNameParams,
  installationId: pathId('installation').openapi({ description: "id of the integration's installation" }),
};
export const spaceInstallationParams = {
  ...installationParams,
  spaceId: pathId('space').openapi({ description: "id of the space, in the installation's organization" }),
};
export const siteInstallationParams = {
  ...installationParams,
  siteId: pathId('site').openapi({ description: "id of the site, in the installation's organization" }),
};

const externalId = text({ min: 1, max: 256 });
const extended = queryBoolean.optional().openapi({
  type: 'boolean',
  description: 'true: `space` / `site` is the whole Space / Site object instead of its id (default false)',
});

export const listInstallationsQuery = {
  ...paginationQuery,
  externalId: externalId.optional().openapi({ description: 'only those with this external id' }),
};
export const extendedQuery = { extended };
export const listContentInstallationsQuery = { ...listInstallationsQuery, extended };
export const listInstallationContentQuery = { ...paginationQuery, extended };

export const installBody = z
  .object({ organization: resourceId.openapi({ description: 'the id of the organization to install it in' }) })
  .strict();
export const installOnSpaceBody = z
  .object({ space: resourceId.openapi({ description: 'the id of the space to install it on' }) })
  .strict();
export const installOnSiteBody = z
  .object({ siteId: resourceId.openapi({ description: 'the id of the site to install it on' }) })
  .strict();

/** At most 64 KiB of JSON: the integration's own settings and state, not a store. */
const MAX_CONFIGURATION_BYTES = 65536;
const configuration = z
  .record(text({ min: 1, max: 100 }), z.unknown())
  .refine(
    (c) => Buffer.byteLength(JSON.stringify(c)) <= MAX_CONFIGURATION_BYTES,
    `must be at most ${MAX_CONFIGURATION_BYTES} bytes of JSON`,
  )
  .openapi({
    type: 'object',
    additionalProperties: true,
    description: 'replaces the whole configuration; properties the integration declares must have their declared type',
  });
const externalIds = z
  .array(externalId)
  .max(5)
  .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a value')
  .openapi({ description: 'external ids assigned by the integration (replaces them)', uniqueItems: true });

export const updateInstallationBody = nonEmpty(
  z
    .object({
      externalIds: externalIds.optional(),
      configuration: configuration.optional(),
      space_selection: z.enum(INSTALLATION_SELECTIONS).optional().openapi({
        description: '`all`: it covers every space of the organization; `selected`: only the spaces it is installed on',
      }),
      site_selection: z.enum(INSTALLATION_SELECTIONS).optional().openapi({
        description: '`all`: it covers every site of the organization; `selected`: only the sites it is installed on',
      }),
    })
    .strict(),
);

export const updateContentInstallationBody = nonEmpty(
  z.object({ externalIds: externalIds.optional(), configuration: configuration.optional() }).strict(),
);
