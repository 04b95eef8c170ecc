/** Section groups: named groups of sections at a site's root level. Runs under the site's lock (lock.ts). */

import type { Site } from '../../entities/Site';
import { SiteSection } from '../../entities/SiteSection';
import { SiteSectionGroup } from '../../entities/SiteSectionGroup';
import type { Db } from '../../platform/db/transactions';
import { badRequest } from '../errors';
import { newId } from '../ids';
import { endOf, siblingsAt, writeOrder } from './order';
import { moveSection } from './sections';

/** A new last group of the root level; the named sections move into it, in the order given. */
export async function addSectionGroup(
  db: Db,
  site: Site,
  input: { title: string; icon?: string | null; sections?: string[] },
): Promise<SiteSectionGroup> {
  const sections: SiteSection[] = [];
  for (const [i, id] of (input.sections ?? []).entries()) {
    const section = await db.findOneBy(SiteSection, { id, siteId: site.id });
    if (!section) throw badRequest(`sections.${i}: no such section in this site`);
    sections.push(section);
  }
  const now = new Date();
  const group = Object.assign(new SiteSectionGroup(), {
    id: newId(),
    siteId: site.id,
    title: input.title,
    icon: input.icon ?? null,
    position: await endOf(db, site.id, { kind: 'root' }),
    createdAt: now,
    updatedAt: now,
  });
  await db.insert(SiteSectionGroup, group);
  for (const section of sections) await moveSection(db, site, section, group.id);
  return group;
}

export async function updateSectionGroup(
  db: Db,
  group: SiteSectionGroup,
  patch: { title?: string; icon?: string | null },
): Promise<SiteSectionGroup> {
  const changes: Partial<SiteSectionGroup> = { updatedAt: new Date() };
  if (patch.title !== undefined) changes.title = patch.title;
  if (patch.icon !== undefined) changes.icon = patch.icon;
  await db.update(SiteSectionGroup, { id: group.id }, changes);
  return Object.assign(group, changes);
}

/** Deletes the group; its sections stay, at the root level where the group was, in their order. */
export async function deleteSectionGroup(db: Db, site: Site, group: SiteSectionGroup): Promise<void> {
  const members = await siblingsAt(db, site.id, { kind: 'group', id: group.id });
  const root = await siblingsAt(db, site.id, { kind: 'root' });
  const at = root.findIndex((s) => s.type === 'site-section-group' && s.id === group.id);
  root.splice(at, 1, ...members);
  await db.update(SiteSection, { siteId: site.id, sectionGroupId: group.id }, { sectionGroupId: null });
  await db.delete(SiteSectionGroup, { id: group.id });
  await writeOrder(db, root);
}

/** Takes the section out of the group to the end of the root level; a section not in it is left as it is. */
export async function removeSectionFromGroup(
  db: Db,
  site: Site,
  group: SiteSectionGroup,
  section: SiteSection,
): Promise<void> {
  if (section.sectionGroupId === group.id) await moveSection(db, site, section, null);
}
