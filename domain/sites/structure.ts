/**
 * A site's structure as readers see it, read in three statements: the root level (sections and
 * section groups of a site with sections, or site spaces of one without), each group's sections, each
 * section's site spaces, all in order, with the defaults in effect. A site space whose space is
 * soft-deleted (or no longer in the site's organization) is left out everywhere, which hides it until
 * the space is restored; its row and position are kept.
 */

import type { Site } from '../../entities/Site';
import { SiteSection } from '../../entities/SiteSection';
import { SiteSectionGroup } from '../../entities/SiteSectionGroup';
import { SiteSpace } from '../../entities/SiteSpace';
import { Space } from '../../entities/Space';
import { columnsOf, hydrate } from '../../platform/db/rows';
import type { Db } from '../../platform/db/transactions';

export interface PlacedSiteSpace {
  row: SiteSpace;
  space: Space;
  isDefault: boolean;
}
export interface PlacedSection {
  row: SiteSection;
  siteSpaces: PlacedSiteSpace[];
  isDefault: boolean;
}
export interface PlacedGroup {
  row: SiteSectionGroup;
  sections: PlacedSection[];
}
export type RootItem = { kind: 'section'; section: PlacedSection } | { kind: 'group'; group: PlacedGroup };

export interface SiteStructure {
  /** the site has sections (then every site space is in one) */
  hasSections: boolean;
  /** sections and groups at the root level, in order */
  root: RootItem[];
  /** the site spaces at the root level of a site without sections, in order */
  rootSiteSpaces: PlacedSiteSpace[];
  /** every section in reading order (a group's sections where the group is) */
  sections: PlacedSection[];
  groups: PlacedGroup[];
  /** every shown site space in reading order */
  siteSpaces: PlacedSiteSpace[];
}

const byPosition = (a: { position: number; id: string }, b: { position: number; id: string }): number =>
  a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The stored default when it is among `items`, otherwise the first of them. */
function markDefault<T extends { isDefault: boolean }>(
  items: T[],
  storedId: string | null,
  idOf: (item: T) => string,
): void {
  const chosen = items.find((i) => idOf(i) === storedId) ?? items[0];
  if (chosen) chosen.isDefault = true;
}

/**
 * Joins, to site spaces `ss` of sites `s`, their space as `sp` when the site shows it: a live space of
 * the site's organization.
 */
export const SHOWN_SPACE_JOIN =
  'INNER JOIN spaces sp ON sp.id = ss.spaceId AND sp.deletedAt IS NULL AND sp.organizationId = s.organizationId';

/** The site spaces shown in the site, with their spaces, in position order. */
async function shownSiteSpaces(db: Db, site: Site): Promise<PlacedSiteSpace[]> {
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT ${columnsOf(db, SiteSpace, 'ss')}, ${columnsOf(db, Space, 'sp')} FROM site_spaces ss
     INNER JOIN sites s ON s.id = ss.siteId ${SHOWN_SPACE_JOIN}
     WHERE ss.siteId = ? ORDER BY ss.position, ss.id`,
    [site.id],
  );
  return rows.map((r) => ({
    row: hydrate(db, SiteSpace, 'ss', r),
    space: hydrate(db, Space, 'sp', r),
    isDefault: false,
  }));
}

/**
 * `shows`: whether the reader sees a section or site space with this condition (a visitor, by their
 * claims); what it hides is left out before the defaults are chosen.
 */
export async function loadStructure(
  db: Db,
  site: Site,
  shows: (condition: string | null) => boolean = () => true,
): Promise<SiteStructure> {
  const groupRows = (await db.find(SiteSectionGroup, { where: { siteId: site.id } })).sort(byPosition);
  const sectionRows = (await db.find(SiteSection, { where: { siteId: site.id } }))
    .sort(byPosition)
    .filter((row) => shows(row.condition));
  const siteSpaces = (await shownSiteSpaces(db, site)).filter((placed) => shows(placed.row.condition));

  const sectionById = new Map(
    sectionRows.map((row) => [row.id, { row, siteSpaces: [] as PlacedSiteSpace[], isDefault: false }]),
  );
  const rootSiteSpaces: PlacedSiteSpace[] = [];
  for (const placed of siteSpaces) {
    if (placed.row.sectionId === null) rootSiteSpaces.push(placed);
    // a site space whose section is gone (a purge between its batches) is shown nowhere
    else sectionById.get(placed.row.sectionId)?.siteSpaces.push(placed);
  }
  const groupById = new Map(groupRows.map((row) => [row.id, { row, sections: [] as PlacedSection[] }]));
  const rootRows: Array<{ position: number; id: string; item: RootItem }> = groupRows.map((row) => ({
    position: row.position,
    id: row.id,
    item: { kind: 'group', group: groupById.get(row.id)! },
  }));
  for (const section of sectionById.values()) {
    const group = section.row.sectionGroupId === null ? undefined : groupById.get(section.row.sectionGroupId);
    if (group) group.sections.push(section);
    else rootRows.push({ position: section.row.position, id: section.row.id, item: { kind: 'section', section } });
  }
  const root = rootRows.sort(byPosition).map((r) => r.item);
  const sections = root.flatMap((item) => (item.kind === 'section' ? [item.section] : item.group.sections));

  markDefault(rootSiteSpaces, site.defaultSiteSpaceId, (s) => s.row.id);
  for (const section of sections) markDefault(section.siteSpaces, section.row.defaultSiteSpaceId, (s) => s.row.id);
  // a section showing nothing is not the default while another shows something
  const showing = sections.filter((s) => s.siteSpaces.length);
  markDefault(showing.length ? showing : sections, site.defaultSiteSectionId, (s) => s.row.id);

  return {
    hasSections: sections.length > 0,
    root,
    rootSiteSpaces,
    sections,
    groups: [...groupById.values()],
    siteSpaces: sections.length ? sections.flatMap((s) => s.siteSpaces) : rootSiteSpaces,
  };
}

export function findSection(structure: SiteStructure, id: string): PlacedSection | undefined {
  return structure.sections.find((s) => s.row.id === id);
}

export function findGroup(structure: SiteStructure, id: string): PlacedGroup | undefined {
  return structure.groups.find((g) => g.row.id === id);
}

export function findSiteSpace(structure: SiteStructure, id: string): PlacedSiteSpace | undefined {
  return structure.siteSpaces.find((s) => s.row.id === id);
}

/** The section readers land in: the default one, when the site has sections. */
export function defaultSection(structure: SiteStructure): PlacedSection | undefined {
  return structure.sections.find((s) => s.isDefault);
}
