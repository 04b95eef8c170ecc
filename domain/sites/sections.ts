/**
 * Sections of a site: distinct content, each with one or more site spaces as variants, at the root
 * level or in a section group. Runs under the site's lock (lock.ts).
 */
import { IsNull } from 'typeorm';
import { Site } from '../../entities/Site';
import { SiteSection } from '../../entities/SiteSection';
import { SiteSectionGroup } from '../../entities/SiteSectionGroup';
import { SiteSpace } from '../../entities/SiteSpace';
import type { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { badRequest } from '../errors';
import { newId } from '../ids';
import { checkCondition } from './conditions';
import { setDefaultSection, setDefaultSiteSpace } from './defaults';
import { closeGaps, endOf, moveToEnd, Parent, sameParent } from './order';
import { assertPathFree, pathFromTitle } from './paths';
import { parentOfSection } from './removal';
import { placeSiteSpace } from './site-spaces';
import { findSiteSpace, loadStructure } from './structure';

const TITLE_MIN = 2;
const UNTITLED = 'Untitled section';

function sectionsOf(db: Db, siteId: string): Promise<Array<Pick<SiteSection, 'id' | 'path'>>> {
  return db.find(SiteSection, { where: { siteId }, select: { id: true, path: true } });
}

async function sectionPaths(db: Db, siteId: string, except?: string): Promise<Set<string>> {
  return new Set((await sectionsOf(db, siteId)).filter((r) => r.id !== except).map((r) => r.path));
}

/** A new last section of the root level; the site's first is its default, and stays so whatever sorts come after. */
async function insertSection(db: Db, site: Site, title: string, icon: string | null): Promise<SiteSection> {
  const existing = await sectionsOf(db, site.id);
  const now = new Date();
  const section = Object.assign(new SiteSection(), {
    id: newId(),
    siteId: site.id,
    sectionGroupId: null,
    title,
    description: null,
    icon,
    path: pathFromTitle(title, new Set(existing.map((r) => r.path)), 'section'),
    condition: null,
    defaultSiteSpaceId: null,
    position: await endOf(db, site.id, { kind: 'root' }),
    createdAt: now,
    updatedAt: now,
  });
  await db.insert(SiteSection, section);
  if (!existing.some((r) => r.id === site.defaultSiteSectionId)) await setDefaultSection(db, site, section.id);
  return section;
}

/**
 * The first section of a site whose site spaces are at the root level takes them in, titled after
 * the site, as its default section: a site's site spaces are all at the root or all in sections.
 */
async function wrapRootSiteSpaces(db: Db, site: Site): Promise<void> {
  if (!(await db.existsBy(SiteSpace, { siteId: site.id, sectionId: IsNull() }))) return;
  const wrapper = await insertSection(db, site, site.title, null);
  await db.update(SiteSpace, { siteId: site.id, sectionId: IsNull() }, { sectionId: wrapper.id });
  await setDefaultSiteSpace(db, site, wrapper, site.defaultSiteSpaceId);
  await setDefaultSiteSpace(db, site, null, null);
  await closeGaps(db, site.id, { kind: 'section', id: wrapper.id });
  await closeGaps(db, site.id, { kind: 'root' });
}

/** A new last section at the root level, with `space` as its first site space; titled after the space unless given. */
export async function addSection(
  db: Db,
  site: Site,
  space: Space,
  input: { title?: string | null; icon?: string | null },
): Promise<SiteSection> {
  await wrapRootSiteSpaces(db, site);
  const title = input.title ?? (Array.from(space.title).length >= TITLE_MIN ? space.title : UNTITLED);
  const section = await insertSection(db, site, title, input.icon ?? null);
  await placeSiteSpace(db, site, space, section.id);
  return section;
}

export interface SectionPatch {
  title?: string;
  path?: string;
  defaultSiteSpace?: string;
  /** null removes it */
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
  /** GitBook's way of moving: a group of the site, or null for the root level (last there either way) */
  siteSectionGroupId?: string | null;
}

export async function updateSection(
  db: Db,
  site: Site,
  section: SiteSection,
  patch: SectionPatch,
): Promise<SiteSection> {
  const changes: Partial<SiteSection> = { updatedAt: new Date() };
  for (const key of ['title', 'icon', 'description'] as const)
    if (patch[key] !== undefined) Object.assign(changes, { [key]: patch[key] });
  if (patch.path !== undefined && patch.path !== section.path) {
    assertPathFree(patch.path, await sectionPaths(db, site.id, section.id), 'section of this site');
    changes.path = patch.path;
  }
  if (patch.condition !== undefined) {
    if (patch.condition !== null) checkCondition(site.adaptiveSchema, patch.condition);
    changes.condition = patch.condition;
  }
  if (patch.defaultSiteSpace !== undefined) {
    const chosen = findSiteSpace(await loadStructure(db, site), patch.defaultSiteSpace);
    if (chosen?.row.sectionId !== section.id) throw badRequest('defaultSiteSpace: no such site space in this section');
    changes.defaultSiteSpaceId = chosen.row.id;
  }
  await db.update(SiteSection, { id: section.id }, changes);
  Object.assign(section, changes);
  if (patch.siteSectionGroupId !== undefined) await moveSection(db, site, section, patch.siteSectionGroupId);
  return section;
}

/** Moves the section, last, into the group (null: the root level); where it already is, nothing changes. */
export async function moveSection(db: Db, site: Site, section: SiteSection, groupId: string | null): Promise<void> {
  if (groupId !== null && !(await db.existsBy(SiteSectionGroup, { id: groupId, siteId: site.id }))) {
    throw badRequest('siteSectionGroupId: no such section group in this site');
  }
  const from = parentOfSection(section);
  const to: Parent = groupId === null ? { kind: 'root' } : { kind: 'group', id: groupId };
  if (sameParent(from, to)) return;
  await moveToEnd(db, site.id, from, to, async (position) => {
    await db.update(SiteSection, { id: section.id }, { sectionGroupId: groupId, position, updatedAt: new Date() });
    Object.assign(section, { sectionGroupId: groupId, position });
  });
}
