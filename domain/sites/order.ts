/**
 * Order within one level of a site's structure: the root level (section groups, sections outside a
 * group, and the site spaces of a site without sections), a group's sections, or a section's site
 * spaces. Positions are 0..n-1 in each level, rewritten whole by every change under the site's lock
 * (lock.ts), so concurrent changes leave a total order with no duplicates and no gaps.
 */
import { IsNull } from 'typeorm';
import { SiteSection } from '../../entities/SiteSection';
import { SiteSectionGroup } from '../../entities/SiteSectionGroup';
import { SiteSpace } from '../../entities/SiteSpace';
import type { Db } from '../../platform/db/transactions';

export const ITEM_TYPES = ['site-space', 'site-section', 'site-section-group'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];
export interface ItemRef {
  type: ItemType;
  id: string;
}

/** Where an item lives: the root level, a group, or a section. */
export type Parent = { kind: 'root' } | { kind: 'group'; id: string } | { kind: 'section'; id: string };

const ENTITY = {
  'site-space': SiteSpace,
  'site-section': SiteSection,
  'site-section-group': SiteSectionGroup,
} as const;

interface Sibling extends ItemRef {
  position: number;
}

export const sameItem = (a: ItemRef, b: ItemRef): boolean => a.type === b.type && a.id === b.id;

export function sameParent(a: Parent, b: Parent): boolean {
  return a.kind === b.kind && (a.kind === 'root' || a.id === (b as { id: string }).id);
}

/** Every item of the level (hidden site spaces too), in order. */
export async function siblingsAt(db: Db, siteId: string, parent: Parent): Promise<Sibling[]> {
  const select = { id: true, position: true } as const;
  const of = (type: ItemType) => (rows: Array<{ id: string; position: number }>) =>
    rows.map((r) => ({ type, id: r.id, position: r.position }));
  let all: Sibling[];
  if (parent.kind === 'section')
    all = of('site-space')(await db.find(SiteSpace, { where: { siteId, sectionId: parent.id }, select }));
  else if (parent.kind === 'group')
    all = of('site-section')(await db.find(SiteSection, { where: { siteId, sectionGroupId: parent.id }, select }));
  else {
    all = [
      ...of('site-section-group')(await db.find(SiteSectionGroup, { where: { siteId }, select })),
      ...of('site-section')(await db.find(SiteSection, { where: { siteId, sectionGroupId: IsNull() }, select })),
      ...of('site-space')(await db.find(SiteSpace, { where: { siteId, sectionId: IsNull() }, select })),
    ];
  }
  return all.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Writes positions 0..n-1 in the given order, touching only the rows that move. */
export async function writeOrder(db: Db, ordered: Sibling[]): Promise<void> {
  for (const [index, item] of ordered.entries()) {
    if (item.position === index) continue;
    await db.update(ENTITY[item.type], { id: item.id }, { position: index });
    item.position = index;
  }
}

/** The position of a new last item of the level. */
export async function endOf(db: Db, siteId: string, parent: Parent): Promise<number> {
  return (await siblingsAt(db, siteId, parent)).length;
}

/** Closes the gap an item left when it was removed from (or moved out of) the level. */
export async function closeGaps(db: Db, siteId: string, parent: Parent): Promise<void> {
  await writeOrder(db, await siblingsAt(db, siteId, parent));
}

/** Moves `item` of the level right before or after `anchor` (another item of it), or to the end without one. */
export async function reorder(
  db: Db,
  siteId: string,
  parent: Parent,
  item: ItemRef,
  anchor?: { side: 'before' | 'after'; ref: ItemRef },
): Promise<void> {
  const siblings = await siblingsAt(db, siteId, parent);
  const moving = siblings.find((s) => sameItem(s, item));
  if (!moving) throw new Error(`${item.type} ${item.id} is not at this level`);
  const others = siblings.filter((s) => s !== moving);
  let at = others.length;
  if (anchor) {
    const index = others.findIndex((s) => sameItem(s, anchor.ref));
    if (index < 0) throw new Error(`${anchor.ref.type} ${anchor.ref.id} is not at this level`);
    at = anchor.side === 'before' ? index : index + 1;
  }
  others.splice(at, 0, moving);
  await writeOrder(db, others);
}

/** An item's level after it moved: it goes last there, and the level it left closes up. */
export async function moveToEnd(
  db: Db,
  siteId: string,
  from: Parent,
  to: Parent,
  write: (position: number) => Promise<void>,
): Promise<void> {
  await write(await endOf(db, siteId, to));
  await closeGaps(db, siteId, from);
}
