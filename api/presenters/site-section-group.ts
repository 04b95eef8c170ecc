import { z } from 'zod';
import type { PlacedGroup } from '../../domain/sites/structure';
import type { Site } from '../../entities/Site';
import type { Presented } from '../../platform/wire/to-wire';
import { presentSiteSection, siteSectionSchema } from './site-section';
import type { PresentedSpace } from './site-space';
import type { Urls } from './urls';

export const siteSectionGroupSchema = z
  .object({
    object: z.literal('site-section-group'),
    id: z.string(),
    title: z.string(),
    icon: z.string().optional(),
    sections: z.array(siteSectionSchema).openapi({ description: 'its sections, in order' }),
    children: z
      .array(siteSectionSchema)
      .openapi({ description: 'GitBook 0.202: the same sections (groups do not nest here)' }),
    draft: z.boolean().openapi({ description: 'GitBook 0.202: there are no drafts, always false' }),
  })
  .openapi('SiteSectionGroup');

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
