import { z } from 'zod';
import type { PlacedSection } from '../../domain/sites/structure';
import type { Site } from '../../entities/Site';
import type { Presented } from '../../platform/wire/to-wire';
import { PresentedSpace, presentSiteSpace, siteSpaceSchema } from './site-space';
import { publishedOrNull, siteItemAddress } from './site-urls';
import type { Urls } from './urls';

export const siteSectionSchema = z
  .object({
    object: z.literal('site-section').openapi({ description: 'always `site-section`' }),
    id: z.string().openapi({ description: 'id of the section' }),
    title: z.string().openapi({ description: "the section's title in the site's navigation" }),
    description: z
      .string()
      .optional()
      .openapi({ description: 'a short description of the section; absent when it has none' }),
    default: z.boolean().openapi({ description: 'true for the default section of the site' }),
    path: z.string().openapi({ description: 'its URL segment under the site, unique in the site' }),
    condition: z.string().optional().openapi({
      description: "an expression over the visitor's claims: shown only when it holds; absent: always shown",
    }),
    sectionGroup: z.string().optional().openapi({ description: 'the group it is in; absent at the root level' }),
    icon: z.string().optional().openapi({ description: 'an icon name; absent when it has none' }),
    siteSpaces: z.array(siteSpaceSchema).openapi({ description: 'its variants, in order' }),
    draft: z.boolean().openapi({ description: 'GitBook 0.202: there are no drafts, always false' }),
    urls: z
      .object({
        published: z.string().optional().openapi({ description: 'absent while the site is not published' }),
      })
      .openapi({ description: 'where the section is read on the published site' }),
  })
  .openapi('SiteSection', {
    description:
      "A section of a site: a tab of its navigation with its own path, whose site spaces are the section's variants.",
  });

export type PresentedSiteSection = Presented<typeof siteSectionSchema>;

/** `spaces`: the presented space of each of its site spaces, by space id. */
export function presentSiteSection(
  site: Site,
  placed: PlacedSection,
  spaces: Map<string, PresentedSpace>,
  urls: Urls,
): PresentedSiteSection {
  const { row } = placed;
  return {
    object: 'site-section',
    id: row.id,
    title: row.title,
    description: row.description,
    default: placed.isDefault,
    path: row.path,
    condition: row.condition,
    sectionGroup: row.sectionGroupId,
    icon: row.icon,
    siteSpaces: placed.siteSpaces.map((s) => presentSiteSpace(site, s, row.path, spaces.get(s.space.id)!, urls)),
    draft: false,
    urls: { published: publishedOrNull(site, () => siteItemAddress(site, [row.path], urls)) },
  };
}
