/**
 * The stored defaults: a site's default section, and the default site space of each section or of
 * the root level. A pointer that names nothing shown falls back to the first item (structure.ts).
 */

import { Site } from '../../entities/Site';
import { SiteSection } from '../../entities/SiteSection';
import type { Db } from '../../platform/db/transactions';

/** Who takes over from `removed` in `ids` (an ordered level): the one after it, else the one before. */
export function nextDefault(ids: string[], removed: string): string | null {
  const i = ids.indexOf(removed);
  return ids[i + 1] ?? ids[i - 1] ?? null;
}

/** The default site space of `section`, or of the root level when it is null. */
export async function setDefaultSiteSpace(
  db: Db,
  site: Site,
  section: SiteSection | null,
  siteSpaceId: string | null,
): Promise<void> {
  if (section) {
    await db.update(SiteSection, { id: section.id }, { defaultSiteSpaceId: siteSpaceId });
    section.defaultSiteSpaceId = siteSpaceId;
  } else {
    await db.update(Site, { id: site.id }, { defaultSiteSpaceId: siteSpaceId });
    site.defaultSiteSpaceId = siteSpaceId;
  }
}

export async function setDefaultSection(db: Db, site: Site, sectionId: string | null): Promise<void> {
  await db.update(Site, { id: site.id }, { defaultSiteSectionId: sectionId });
  site.defaultSiteSectionId = sectionId;
}
