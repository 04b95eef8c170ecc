import { z } from 'zod';
import type { PlacedGroup } from '../../domain/sites/structure';
import type { Site } from '../../entities/Site';
import type { Presented } from '../../platform/wire/to-wire';
import { presentSiteSection, siteSectionSchema } from './site-section';
import type { PresentedSpace } from './site-space';
import type { Urls } from './urls';

export const siteSectionGroupSchema = z
  .object({
    object: z.literal('site-section-group').openapi({ description: 'always `site-section-group`' }),
    id: z.string().openapi({ description: 'id of the section group' }),
    title: z.string().openapi({ description: "the group's title in the site's navigation" }),
    icon: z.string().optional().openapi({ description: 'an icon name; absent when it has none' }),
    sections: z.array(siteSectionSchema).openapi({ description: 'its sections, in order' }),
    children: z
      .array(siteSectionSchema)
      .openapi({ description: 'GitBook 0.202: the same sections (groups do not nest here)' }),
    draft: z.boolean().openapi({ description: 'GitBook 0.202: there are no drafts, always false' }),
  })
  .openapi('SiteSectionGroup', {
    description:
      "A group of sections at the root level of a site's navigation; it adds no segment to their addresses and does not nest.",
  });

export type PresentedSiteSectionGroup = Presented<typeof siteSectionGroupSchema>;

export function presentSiteSectionGroup(
  site: Site,
  placed: PlacedGroup,
  spaces: Map<string, PresentedSpace>,
  urls: Urls,
): PresentedSiteSectionGroup {
  const sections = placed.sections.map((s) => presentSiteSection(site, s, spaces, urls));
  return {
    object: 'site-section-group',
    id: placed.row.id,
    title: placed.row.title,
    icon: placed.row.icon,
    sections,
    children: sections,
    draft: false,
  };
}
