/**
 * Order among siblings: the collections and spaces directly under one parent (a collection, or the
 * organization root) share one ordering by their `position` double. New items go last; placing an
 * item before or after an anchor takes the midpoint between the anchor and its neighbour; when that
 * gap is too small to split, the siblings are renumbered first. Spaces and collections both use this.
 */
import { FindOperator, IsNull } from 'typeorm';
import { Collection } from '../../entities/Collection';
import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { badRequest, conflict } from '../errors';

const POSITION_STEP = 1024;
/** Below this gap two neighbours are renumbered rather than split (doubles keep ~52 bits). */
const MIN_GAP = 1e-6;

export type SiblingKind = 'space' | 'collection';
export interface SiblingRef {
  kind: SiblingKind;
  id: string;
}
export interface Placement {
  side: 'before' | 'after';
  anchor: SiblingRef;
}
interface Sibling extends SiblingRef {
  position: number;
}

function parentIs(parentId: string | null): string | FindOperator<string> {
  return parentId === null ? IsNull() : parentId;
}

/** Live siblings under `parentId`, in display order (position, then id). */
async function siblingsUnder(db: Db, organizationId: string, parentId: string | null): Promise<Sibling[]> {
  const select = { id: true, position: true } as const;
  const collections = await db.find(Collection, { where: { organizationId, parentId: parentIs(parentId) }, select });
  const spaces = await db.find(Space, {
    where: { organizationId, parentId: parentIs(parentId), deletedAt: IsNull() },
    select,
  });
  const all: Sibling[] = [
    ...collections.map((c) => ({ kind: 'collection' as const, id: c.id, position: c.position })),
    ...spaces.map((s) => ({ kind: 'space' as const, id: s.id, position: s.position })),
  ];
  return all.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The position of a new last item (deleted spaces count too, so a restored one keeps its place). */
export async function lastPosition(db: Db, organizationId: string, parentId: string | null): Promise<number> {
  let max: number | null = null;
  for (const entity of [Collection, Space]) {
    const row = await db
      .createQueryBuilder(entity, 'x')
      .select('MAX(x.position)', 'max')
      .where('x.organizationId = :organizationId', { organizationId })
      .andWhere(parentId === null ? 'x.parentId IS NULL' : 'x.parentId = :parentId', { parentId })
      .getRawOne<{ max: number | string | null }>();
    if (row?.max !== null && row?.max !== undefined) max = Math.max(max ?? -Infinity, Number(row.max));
  }
  return max === null ? POSITION_STEP : max + POSITION_STEP;
}

const sameRef = (a: SiblingRef, b: SiblingRef): boolean => a.kind === b.kind && a.id === b.id;

/** An existing item being moved: itself and the parent it is under now. */
export interface MovingItem {
  ref: SiblingRef;
  currentParentId: string | null;
}

/**
 * Where an item lands under `parentId`: last without a placement, otherwise right before or after the
 * anchor, which must be another live sibling there (400 "position: ..."). For a `moving` item, staying
 * exactly where it is is a 409.
 */
export async function positionAmongSiblings(
  db: Db,
  organizationId: string,
  parentId: string | null,
  placement: Placement | undefined,
  moving?: MovingItem,
): Promise<number> {
  const stays = moving !== undefined && moving.currentParentId === parentId;
  if (!placement) {
    if (stays) throw conflict('the move would not change anything');
    return lastPosition(db, organizationId, parentId);
  }
  if (moving && sameRef(placement.anchor, moving.ref))
    throw badRequest('position: an item cannot be placed relative to itself');
  const all = await siblingsUnder(db, organizationId, parentId);
  const anchorIndex = all.findIndex((s) => sameRef(s, placement.anchor));
  if (anchorIndex < 0)
    throw badRequest(`position: ${placement.anchor.kind} "${placement.anchor.id}" is not in the target parent`);
  if (stays) {
    const itemIndex = all.findIndex((s) => sameRef(s, moving.ref));
    if (itemIndex === anchorIndex + (placement.side === 'before' ? -1 : 1))
      throw conflict('the move would not change anything');
  }
  const others = moving ? all.filter((s) => !sameRef(s, moving.ref)) : all;
  let slot = gapAround(others, placement);
  if (slot.high - slot.low < MIN_GAP) {
    await renumber(db, others);
    slot = gapAround(others, placement);
  }
  return (slot.low + slot.high) / 2;
}

/** The open interval the item must land in; a missing neighbour leaves a full step of room. */
function gapAround(siblings: Sibling[], placement: Placement): { low: number; high: number } {
  const i = siblings.findIndex((s) => sameRef(s, placement.anchor));
  const anchor = siblings[i].position;
  if (placement.side === 'before') {
    const prev = siblings[i - 1];
    return { low: prev ? prev.position : anchor - 2 * POSITION_STEP, high: anchor };
  }
  const next = siblings[i + 1];
  return { low: anchor, high: next ? next.position : anchor + 2 * POSITION_STEP };
}

/** Spreads the siblings out again, keeping their order (updates `siblings` in place). */
async function renumber(db: Db, siblings: Sibling[]): Promise<void> {
  for (const [i, s] of siblings.entries()) {
    s.position = (i + 1) * POSITION_STEP;
    await db.update(s.kind === 'space' ? Space : Collection, { id: s.id }, { position: s.position });
  }
}
