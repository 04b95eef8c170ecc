/**
 * `PATCH …/structure/sort` (one operation orders sections, groups and site spaces) and the deprecated move operations that go through it:
 * an item moves right before or after a sibling at its own level, or to the end of that level.
 * Moving between levels is the items' own update (a section's `siteSectionGroupId`).
 */

import type { Site } from '../../entities/Site';
import type { Db } from '../../platform/db/transactions';
import { badRequest, notFound } from '../errors';
import { ItemRef, ItemType, Parent, reorder, sameItem, sameParent } from './order';
import { findGroup, findSection, findSiteSpace, loadStructure, SiteStructure } from './structure';

/** Where the item goes: right before or after a sibling at its level; none: the end of its level. */
export interface SortAnchor {
  side: 'before' | 'after';
  ref: ItemRef;
}

const NAMES: Record<ItemType, string> = {
  'site-space': 'site space',
  'site-section': 'site section',
  'site-section-group': 'site section group',
};

/** The level of a shown item; undefined for an item the site does not show. */
function parentOf(structure: SiteStructure, ref: ItemRef): Parent | undefined {
  switch (ref.type) {
    case 'site-space': {
      const placed = findSiteSpace(structure, ref.id);
      if (!placed) return undefined;
      return placed.row.sectionId === null ? { kind: 'root' } : { kind: 'section', id: placed.row.sectionId };
    }
    case 'site-section': {
      const placed = findSection(structure, ref.id);
      if (!placed) return undefined;
      return placed.row.sectionGroupId === null ? { kind: 'root' } : { kind: 'group', id: placed.row.sectionGroupId };
    }
    case 'site-section-group':
      return findGroup(structure, ref.id) ? { kind: 'root' } : undefined;
  }
}

/** Moves `item` (404 when the site does not show it); an anchor that is not a sibling of it is a 400. */
export async function sortItem(db: Db, site: Site, item: ItemRef, anchor: SortAnchor | undefined): Promise<void> {
  const structure = await loadStructure(db, site);
  const parent = parentOf(structure, item);
  if (!parent) throw notFound(NAMES[item.type]);
  if (!anchor) return reorder(db, site.id, parent, item);
  const field = `position.${anchor.side}`;
  if (sameItem(anchor.ref, item)) throw badRequest(`${field}: an item cannot be placed relative to itself`);
  const anchorParent = parentOf(structure, anchor.ref);
  if (!anchorParent || !sameParent(anchorParent, parent))
    throw badRequest(`${field}: ${NAMES[anchor.ref.type]} "${anchor.ref.id}" is not a sibling of the item`);
  await reorder(db, site.id, parent, item, anchor);
}
