/**
 * Removing site spaces and sections. The default that goes hands over to the next item of its level;
 * a section that loses its last site space goes too. Runs under the site's lock (lock.ts).
 */

import type { Site } from '../../entities/Site';
import { SiteSection } from '../../entities/SiteSection';
import { SiteSpace } from '../../entities/SiteSpace';
import type { Db } from '../../platform/db/transactions';
import { nextDefault, setDefaultSection, setDefaultSiteSpace } from './defaults';
import { findLockedSite } from './lock';
import { closeGaps, Parent } from './order';
import { parentOfSiteSpace, siteSpacesAt } from './site-spaces';
import { loadStructure } from './structure';

export function parentOfSection(section: SiteSection): Parent {
  return section.sectionGroupId === null ? { kind: 'root' } : { kind: 'group', id: section.sectionGroupId };
}

export async function deleteSiteSpace(db: Db, site: Site, row: SiteSpace): Promise<void> {
  const siblings = await siteSpacesAt(db, site.id, row.sectionId);
  const section = row.sectionId === null ? null : await db.findOneBy(SiteSection, { id: row.sectionId });
  const storedDefault = section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId;
  if (storedDefault === row.id)
    await setDefaultSiteSpace(
      db,
      site,
      section,
      nextDefault(
        siblings.map((s) => s.id),
        row.id,
      ),
    );
  await db.delete(SiteSpace, { id: row.id });
  if (section && siblings.length === 1) await deleteSection(db, site, section);
  else await closeGaps(db, site.id, parentOfSiteSpace(row));
}

/** Deletes the section with its site spaces; the next section in reading order becomes the default if it was. */
export async function deleteSection(db: Db, site: Site, section: SiteSection): Promise<void> {
  if (site.defaultSiteSectionId === section.id) {
    const order = (await loadStructure(db, site)).sections.map((s) => s.row.id);
    await setDefaultSection(db, site, nextDefault(order, section.id));
  }
  await db.delete(SiteSpace, { siteId: site.id, sectionId: section.id });
  await db.delete(SiteSection, { id: section.id });
  await closeGaps(db, site.id, parentOfSection(section));
}

/**
 * A space that leaves its organization (a transfer) leaves that organization's sites: each of its site
 * spaces goes as a DELETE would take it, one site at a time under the site's lock.
 */
export async function removeSpaceFromSites(db: Db, organizationId: string, spaceId: string): Promise<void> {
  const siteIds = [
    ...new Set((await db.find(SiteSpace, { where: { spaceId }, select: { siteId: true } })).map((r) => r.siteId)),
  ].sort();
  for (const siteId of siteIds) {
    const site = await findLockedSite(db, organizationId, siteId);
    if (!site) continue;
    for (const row of await db.find(SiteSpace, { where: { siteId, spaceId } })) await deleteSiteSpace(db, site, row);
  }
}
