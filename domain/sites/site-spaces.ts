/**
 * Site spaces: a space shown in a site, as a variant of a section or at the root level of a site
 * without sections. Every function here runs under the site's lock (lock.ts).
 */
import { IsNull } from 'typeorm';
import type { Site } from '../../entities/Site';
import { SiteSection } from '../../entities/SiteSection';
import { SiteSpace } from '../../entities/SiteSpace';
import type { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { badRequest, conflict } from '../errors';
import { newId } from '../ids';
import { checkCondition } from './conditions';
import { setDefaultSiteSpace } from './defaults';
import { endOf, Parent } from './order';
import { assertPathFree, pathFromTitle } from './paths';
import { defaultSection, findSection, loadStructure } from './structure';

export function parentOfSiteSpace(row: SiteSpace): Parent {
  return row.sectionId === null ? { kind: 'root' } : { kind: 'section', id: row.sectionId };
}

/** Every site space of the level (hidden ones too: a restored space comes back beside them). */
export function siteSpacesAt(db: Db, siteId: string, sectionId: string | null): Promise<SiteSpace[]> {
  return db.find(SiteSpace, {
    where: { siteId, sectionId: sectionId ?? IsNull() },
    order: { position: 'ASC', id: 'ASC' },
  });
}

/**
 * Adds `space` last to the section (null: the root level), its path derived from the space's title.
 * A space shows once per level: again is a 409.
 */
export async function placeSiteSpace(db: Db, site: Site, space: Space, sectionId: string | null): Promise<SiteSpace> {
  const siblings = await siteSpacesAt(db, site.id, sectionId);
  if (siblings.some((s) => s.spaceId === space.id))
    throw conflict(`spaceId: the space is already ${sectionId ? 'in this section' : 'in this site'}`);
  const now = new Date();
  const row = Object.assign(new SiteSpace(), {
    id: newId(),
    siteId: site.id,
    sectionId,
    spaceId: space.id,
    path: pathFromTitle(space.title, new Set(siblings.map((s) => s.path)), 'space'),
    condition: null,
    position: await endOf(db, site.id, sectionId === null ? { kind: 'root' } : { kind: 'section', id: sectionId }),
    createdAt: now,
    updatedAt: now,
  });
  await db.insert(SiteSpace, row);
  // the first of its level is its default, and stays so whatever sorts come after
  const section = sectionId === null ? null : await db.findOneByOrFail(SiteSection, { id: sectionId });
  const storedDefault = section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId;
  if (!siblings.some((s) => s.id === storedDefault)) await setDefaultSiteSpace(db, site, section, row.id);
  return row;
}

export interface SiteSpacePatch {
  path?: string;
  /** null removes it */
  condition?: string | null;
  /** the space the site space shows from now on */
  space?: Space;
}

export async function updateSiteSpace(db: Db, site: Site, row: SiteSpace, patch: SiteSpacePatch): Promise<SiteSpace> {
  const siblings = (await siteSpacesAt(db, site.id, row.sectionId)).filter((s) => s.id !== row.id);
  const changes: Partial<SiteSpace> = { updatedAt: new Date() };
  if (patch.path !== undefined && patch.path !== row.path) {
    assertPathFree(patch.path, new Set(siblings.map((s) => s.path)), 'site space at this level');
    changes.path = patch.path;
  }
  if (patch.condition !== undefined) {
    if (patch.condition !== null) checkCondition(site.adaptiveSchema, patch.condition);
    changes.condition = patch.condition;
  }
  if (patch.space && patch.space.id !== row.spaceId) {
    if (siblings.some((s) => s.spaceId === patch.space!.id))
      throw conflict('spaceId: the space is already at this level');
    changes.spaceId = patch.space.id;
  }
  await db.update(SiteSpace, { id: row.id }, changes);
  return Object.assign(row, changes);
}

/**
 * Adds `space` to the named section, or without one to the default section, or to the root level of
 * a site without sections.
 */
export async function addSiteSpace(
  db: Db,
  site: Site,
  space: Space,
  sectionId: string | undefined,
): Promise<SiteSpace> {
  const structure = await loadStructure(db, site);
  if (sectionId !== undefined && !findSection(structure, sectionId))
    throw badRequest('sectionId: no such section in this site');
  return placeSiteSpace(db, site, space, sectionId ?? defaultSection(structure)?.row.id ?? null);
}
