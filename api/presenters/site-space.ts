import { z } from 'zod';
import type { PlacedSiteSpace } from '../../domain/sites/structure';
import type { Site } from '../../entities/Site';
import type { Presented } from '../../platform/wire/to-wire';
import { publishedOrNull, siteItemAddress } from './site-urls';
import { spaceSchema } from './space';
import type { Urls } from './urls';

export const siteSpaceSchema = z
  .object({
    object: z.literal('site-space').openapi({ description: 'always `site-space`' }),
    id: z.string().openapi({ description: 'id of the site space (not of the space it shows)' }),
    path: z.string().openapi({ description: 'its URL segment under the site, or under its section' }),
    section: z.string().optional().openapi({ description: 'the section it is a variant of; absent at the root level' }),
    space: spaceSchema.openapi({ description: 'the space it shows' }),
    title: z.string().openapi({ description: "the space's title" }),
    default: z
      .boolean()
      .openapi({ description: 'true for the default site space of its section, or of the root level' }),
    condition: z.string().optional().openapi({
      description: "an expression over the visitor's claims: shown only when it holds; absent: always shown",
    }),
    hasAdvancedCustomizationFeature: z
      .boolean()
      .openapi({ description: 'GitBook 0.202: no advanced customization here, always false' }),
    draft: z.boolean().openapi({ description: 'GitBook 0.202: there are no drafts, always false' }),
    urls: z
      .object({
        published: z.string().optional().openapi({ description: 'absent while the site is not published' }),
      })
      .openapi({ description: 'where the site space is read on the published site' }),
  })
  .openapi('SiteSpace', {
    description: 'A space shown on a site: at its root level, or as one of the variants of a section, at its own path.',
  });

export type PresentedSiteSpace = Presented<typeof siteSpaceSchema>;
export type PresentedSpace = Presented<typeof spaceSchema>;

/** `sectionPath`: the path of its section, null at the root level. */
export function presentSiteSpace(
  site: Site,
  placed: PlacedSiteSpace,
  sectionPath: string | null,
  space: PresentedSpace,
  urls: Urls,
): PresentedSiteSpace {
  return {
    object: 'site-space',
    id: placed.row.id,
    path: placed.row.path,
    section: placed.row.sectionId,
    space,
    title: placed.space.title,
    default: placed.isDefault,
    condition: placed.row.condition,
    hasAdvancedCustomizationFeature: false,
    draft: false,
    urls: { published: publishedOrNull(site, () => siteItemAddress(site, [sectionPath, placed.row.path], urls)) },
  };
}
