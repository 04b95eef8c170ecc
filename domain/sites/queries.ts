/** Site lists and the counts a Site carries. */

import { Site, SiteType } from '../../entities/Site';
import type { Db } from '../../platform/db/transactions';
import type { ViewableSites } from '../access/authorize';
import { containsPattern } from '../like';
import { SHOWN_SPACE_JOIN } from './structure';

export interface SiteFilters {
  /** sites that show this space */
  space?: string;
  /** title contains, case-insensitively */
  title?: string;
  published?: boolean;
  types?: SiteType[];
}

/** `viewable`: which of the organization's sites the reader sees (viewableSites). */
export function sitesOfOrganizationQuery(
  db: Db,
  organizationId: string,
  viewable: ViewableSites,
  filters: SiteFilters,
) {
  const qb = db.createQueryBuilder(Site, 's').where('s.organizationId = :organizationId', { organizationId });
  if (!viewable.everything) {
    if (viewable.siteIds.length) qb.andWhere('s.id IN (:...viewableSiteIds)', { viewableSiteIds: viewable.siteIds });
    else qb.andWhere('1 = 0');
  }
  if (filters.space !== undefined) {
    qb.andWhere(
      `EXISTS (SELECT 1 FROM site_spaces ss ${SHOWN_SPACE_JOIN} WHERE ss.siteId = s.id AND ss.spaceId = :space)`,
      { space: filters.space },
    );
  }
  if (filters.title !== undefined) qb.andWhere('LOWER(s.title) LIKE :title', { title: containsPattern(filters.title) });
  if (filters.published !== undefined) qb.andWhere('s.published = :published', { published: filters.published });
  if (filters.types?.length) qb.andWhere('s.type IN (:...types)', { types: filters.types });
  return qb;
}

/** How many site spaces each site shows (as its structure does), in one statement. */
export async function shownSiteSpaceCounts(db: Db, siteIds: string[]): Promise<Map<string, number>> {
  const counts = new Map(siteIds.map((id) => [id, 0]));
  if (!siteIds.length) return counts;
  const rows: Array<{ siteId: string; n: number | string }> = await db.query(
    `SELECT ss.siteId AS siteId, COUNT(*) AS n FROM site_spaces ss INNER JOIN sites s ON s.id = ss.siteId ${SHOWN_SPACE_JOIN}
     WHERE ss.siteId IN (?) AND (ss.sectionId IS NULL OR EXISTS (SELECT 1 FROM site_sections sec WHERE sec.id = ss.sectionId))
     GROUP BY ss.siteId`,
    [siteIds],
  );
  for (const r of rows) counts.set(r.siteId, Number(r.n));
  return counts;
}
