/**
 * Where a space is published: its site space in the oldest published site of its
 * organization that shows it (the first one made there, when it shows it more than once). Read for the spaces
 * a site shows (domain/spaces/counters.ts).
 */
export interface PublishedLocation {
  site: { id: string; proxy: string | null; hostname: string | null; basename: string | null };
  /** the path of its section; null at the root level of a site without sections */
  sectionPath: string | null;
  path: string;
}

/** The column `published_location` for the space aliased `alias` (selected under that name; its own aliases are prefixed so that any outer alias works): JSON, or NULL when no published site shows it. */
export function publishedLocationExpression(alias: string): string {
  // Most spaces are in no site: the cheap index probe first, since the ordered join below builds a
  // temporary table even when it finds nothing (0.3 ms of MariaDB time for each space read or listed).
  return `(CASE WHEN EXISTS (SELECT 1 FROM site_spaces pl_any WHERE pl_any.spaceId = ${alias}.id) THEN (SELECT JSON_OBJECT('id', pl_site.id, 'proxy', pl_site.proxy, 'hostname', pl_site.hostname, 'basename', pl_site.basename, 'sectionPath', pl_sec.path, 'path', pl_ss.path)
    FROM site_spaces pl_ss INNER JOIN sites pl_site ON pl_site.id = pl_ss.siteId AND pl_site.published = 1 AND pl_site.organizationId = ${alias}.organizationId
    LEFT JOIN site_sections pl_sec ON pl_sec.id = pl_ss.sectionId
    WHERE pl_ss.spaceId = ${alias}.id AND (pl_ss.sectionId IS NULL OR pl_sec.id IS NOT NULL)
    ORDER BY pl_site.createdAt, pl_site.id, pl_ss.createdAt, pl_ss.id LIMIT 1) END)`;
}

export function publishedLocationOf(row: Record<string, unknown>): PublishedLocation | null {
  const value = row.published_location;
  if (value === null || value === undefined) return null;
  // MariaDB answers JSON_OBJECT as text, MySQL 8 as JSON the driver has parsed
  const { id, proxy, hostname, basename, sectionPath, path } = (
    typeof value === 'string' ? JSON.parse(value) : value
  ) as Record<string, string | null>;
  return { site: { id: id!, proxy, hostname, basename }, sectionPath, path: path! };
}
