import { z } from 'zod';
import type { PlacedSection } from '../../domain/sites/structure';
import type { Site } from '../../entities/Site';
import type { Presented } from '../../platform/wire/to-wire';
import { PresentedSpace, presentSiteSpace, siteSpaceSchema } from './site-space';
import { publishedOrNull, siteItemAddress } from './site-urls';
import type { Urls } from './urls';

export const siteSectionSchema = z
  .object({
    object: z.literal('site-section'),
    id: z.string(),
    title: z.string(),
    description: z.string().optional(),
    default: z.boolean(),
    path: z.string(),
    condition: z.string().optional(),
    sectionGroup: z.string().optional().openapi({ description: 'the group it is in; absent at the root level' }),
    icon: z.string().optional(),
    siteSpaces: z.array(siteSpaceSchema).openapi({ description: 'its variants, in order' }),
    draft: z.boolean().openapi({ description: 'GitBook 0.202: there are no drafts, always false' }),
    urls: z.object({
      published: z.string().optional().openapi({ description: 'absent while the site is not published' }),
    }),
  })
  .openapi('SiteSection');

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
