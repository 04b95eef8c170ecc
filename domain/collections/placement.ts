/** Moving a collection within its organization and transferring it (with everything inside) to another. */
import { In } from 'typeorm';
import { Collection } from '../../entities/Collection';
import { ContentGrant } from '../../entities/ContentGrant';
import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { refreshSpaceLinks } from '../content/indexer';
import { conflict } from '../errors';
import { removeSpaceFromSites } from '../sites/removal';
import { subtreeCollectionIds } from './collections';
import { lastPosition, Placement, positionAmongSiblings } from './ordering';

/** True when `candidateId` is the collection itself or lies below it. */
async function isWithin(db: Db, collection: Collection, candidateId: string): Promise<boolean> {
  const seen = new Set<string>();
  for (let id: string | null = candidateId; id && !seen.has(id); ) {
    if (id === collection.id) return true;
    seen.add(id);
    const c: Collection | null = await db.findOne(Collection, { where: { id }, select: { id: true, parentId: true } });
    id = c?.parentId ?? null;
  }
  return false;
}

/** Moves under `parentId` (null: organization root), last or at `placement` among the new siblings. */
export async function moveCollection(
  db: Db,
  collection: Collection,
  parentId: string | null,
  placement?: Placement,
): Promise<Collection> {
  if (parentId !== null && (await isWithin(db, collection, parentId))) {
    throw conflict('a collection cannot be moved into itself or one of its descendants');
  }
  const position = await positionAmongSiblings(db, collection.organizationId, parentId, placement, {
    ref: { kind: 'collection', id: collection.id },
    currentParentId: collection.parentId,
  });
  const changes = { parentId, position, updatedAt: new Date() };
  await db.update(Collection, { id: collection.id }, changes);
  return Object.assign(collection, changes);
}

/**
 * Moves the collection, its descendant collections and all their spaces (soft-deleted ones too) to the
 * root of another organization. Explicit grants are dropped: they name users and teams of the old one;
 * the spaces leave the old one's sites.
 */
export async function transferCollection(db: Db, collection: Collection, organizationId: string): Promise<Collection> {
  if (organizationId === collection.organizationId) throw conflict('the transfer would not change anything');
  const collectionIds = await subtreeCollectionIds(db, collection);
  const spaceIds = (await db.find(Space, { where: { parentId: In(collectionIds) }, select: { id: true } })).map(
    (s) => s.id,
  );
  const now = new Date();
  const position = await lastPosition(db, organizationId, null);
  await db.update(Collection, { id: In(collectionIds) }, { organizationId, updatedAt: now });
  await db.update(Collection, { id: collection.id }, { parentId: null, position });
  await db.delete(ContentGrant, { targetKind: 'collection', targetId: In(collectionIds) });
  if (spaceIds.length) {
    for (const spaceId of spaceIds) await removeSpaceFromSites(db, collection.organizationId, spaceId);
    await db.update(Space, { id: In(spaceIds) }, { organizationId, updatedAt: now });
    await db.delete(ContentGrant, { targetKind: 'space', targetId: In(spaceIds) });
    await refreshSpaceLinks(db, spaceIds);
  }
  return Object.assign(collection, { organizationId, parentId: null, position, updatedAt: now });
}
