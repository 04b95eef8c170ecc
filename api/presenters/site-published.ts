import { z } from 'zod';
import type { SiteScript } from '../../domain/integrations/site-scripts';
import type { SiteStructure } from '../../domain/sites/structure';
import type { Site } from '../../entities/Site';
import type { Presented } from '../../platform/wire/to-wire';
import { PresentedSite, siteSchema } from './site';
import { SITE_CUSTOMIZATION, siteCustomizationSchema } from './site-customization';
import { PresentedSiteSection, presentSiteSection, siteSectionSchema } from './site-section';
import { PresentedSiteSectionGroup, presentSiteSectionGroup, siteSectionGroupSchema } from './site-section-group';
import { PresentedSpace, presentSiteSpace, siteSpaceSchema } from './site-space';
import type { Urls } from './urls';

export const siteStructureSchema = z
  .union([
    z.object({
      type: z.literal('sections').openapi({ description: '`sections`: the site has sections' }),
      structure: z
        .array(z.union([siteSectionSchema, siteSectionGroupSchema]))
        .openapi({ description: 'the sections and section groups of the root level, in order' }),
    }),
    z.object({
      type: z.literal('siteSpaces').openapi({ description: '`siteSpaces`: the site has no sections' }),
      structure: z.array(siteSpaceSchema).openapi({ description: 'the site spaces of the root level, in order' }),
    }),
  ])
  .openapi('SiteStructure', {
    description: 'sections and groups when the site has sections, otherwise its site spaces; in order',
  });

export const publishedSiteSchema = z
  .object({
    object: z.literal('published-content-site').openapi({ description: 'always `published-content-site`' }),
    site: siteSchema,
    structure: siteStructureSchema,
    customizations: z
      .object({
        site: siteCustomizationSchema,
        siteSpaces: z
          .record(siteCustomizationSchema)
          .openapi({ description: "per site space id, its own settings over the site's: none here, always empty" }),
      })
      .openapi({ description: 'the customization settings of the site and of its site spaces' }),
    scripts: z
      .array(
        z.object({
          script: z.string().openapi({ description: "the integration's script: its public endpoint" }),
          contentSecurityPolicy: z
            .string()
            .optional()
            .openapi({ description: "the integration's Content-Security-Policy, when it declares one" }),
          cookies: z.boolean().openapi({
            description: 'whether the script may set cookies (the integration has the `site:script:cookies` scope)',
          }),
        }),
      )
      .openapi({
        description:
          'the scripts of the integrations with the `site:script:inject` scope installed on the site (actively), at their public endpoints',
      }),
  })
  .openapi('PublishedContentSite', {
    description:
      'A published site in one answer, as its reader sees it: the site, its structure in order, its customizations and the scripts of its integrations.',
  });

/**
 * The structure as a reader of the site sees it: sections that show nothing (every variant's space
 * deleted) and groups left without sections are left out.
 */
export function presentSiteStructure(
  site: Site,
  structure: SiteStructure,
  spaces: Map<string, PresentedSpace>,
  urls: Urls,
): Presented<typeof siteStructureSchema> {
  if (!structure.hasSections)
    return {
      type: 'siteSpaces',
      structure: structure.rootSiteSpaces.map((s) => presentSiteSpace(site, s, null, spaces.get(s.space.id)!, urls)),
    };
  const items = structure.root.flatMap<PresentedSiteSection | PresentedSiteSectionGroup>((item) => {
    if (item.kind === 'section')
      return item.section.siteSpaces.length ? [presentSiteSection(site, item.section, spaces, urls)] : [];
    const group = presentSiteSectionGroup(
      site,
      { ...item.group, sections: item.group.sections.filter((s) => s.siteSpaces.length) },
      spaces,
      urls,
    );
    return group.sections.length ? [group] : [];
  });
  return { type: 'sections', structure: items };
}

export function presentPublishedSite(
  presentedSite: PresentedSite,
  structure: Presented<typeof siteStructureSchema>,
  scripts: SiteScript[],
): Presented<typeof publishedSiteSchema> {
  return {
    object: 'published-content-site',
    site: presentedSite,
    structure,
    customizations: { site: SITE_CUSTOMIZATION, siteSpaces: {} },
    scripts,
  };
}
