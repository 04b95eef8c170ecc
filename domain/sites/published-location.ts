/**
 * Where a space is published (issue 10 §5): its site space in the oldest published site of its
 * organization that shows it (the first one made there, when it shows it more than once). Read as a
 * column of the statement that reads the space, so a space read costs no statement more.
 */
export interface PublishedLocation {
  site: { id: string; proxy: string | null; hostname: string | null; basename: string | null };
  /** the path of its section; null at the root level of a site without sections */
  sectionPath: string | null;
  path: string;
}

/** The column `published_location` for the space aliased `alias`: JSON, or NULL when no published site shows it. */
export function publishedLocationColumn(alias: string): string {
  return `(SELECT JSON_OBJECT('id', s.id, 'proxy', s.proxy, 'hostname', s.hostname, 'basename', s.basename, 'sectionPath', sec.path, 'path', ss.path)
    FROM site_spaces ss INNER JOIN sites s ON s.id = ss.siteId AND s.published = 1 AND s.organizationId = ${alias}.organizationId
    LEFT JOIN site_sections sec ON sec.id = ss.sectionId
    WHERE ss.spaceId = ${alias}.id AND (ss.sectionId IS NULL OR sec.id IS NOT NULL)
    ORDER BY s.createdAt, s.id, ss.createdAt, ss.id LIMIT 1) AS published_location`;
}

export function publishedLocationOf(row: Record<string, unknown>): PublishedLocation | null {
  const value = row.published_location;
  if (value === null || value === undefined) return null;
  // MariaDB answers JSON_OBJECT as text, MySQL 8 as JSON the driver has parsed
  const { id, proxy, hostname, basename, sectionPath, path } = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, string | null>;
  return { site: { id: id!, proxy, hostname, basename }, sectionPath, path: path! };
}
