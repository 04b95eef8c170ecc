/** Collection rules: creation under a parent of the same organization, updates, deletion of empty collections. */
import { In, IsNull } from 'typeorm';
import { Collection } from '../../entities/Collection';
import { ContentGrant } from '../../entities/ContentGrant';
import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import type { Role } from '../access/roles';
import { badRequest, conflict } from '../errors';
import { newId } from '../ids';
import { lastPosition } from './ordering';

export const UNTITLED_COLLECTION = 'Untitled collection';

/** The 400 for a `parent` that does not exist in the organization (or that the caller cannot see). */
export const parentNotFound = () => badRequest('parent: no such collection in this organization');

/** The collection `parentId` of `organizationId`, or the 400 naming the field. */
export async function findParentCollection(db: Db, organizationId: string, parentId: string): Promise<Collection> {
  const parent = await db.findOneBy(Collection, { id: parentId, organizationId });
  if (!parent) throw parentNotFound();
  return parent;
}

export async function createCollection(
  db: Db,
  organizationId: string,
  parent: Collection | null,
  input: { title?: string },
): Promise<Collection> {
  const now = new Date();
  const parentId = parent?.id ?? null;
  const collection = db.create(Collection, {
    id: newId(),
    organizationId,
    parentId,
    title: input.title ?? UNTITLED_COLLECTION,
    description: null,
    defaultLevel: null,
    position: await lastPosition(db, organizationId, parentId),
    createdAt: now,
    updatedAt: now,
  });
  await db.insert(Collection, collection);
  return collection;
}

export interface CollectionPatch {
  title?: string;
  description?: string | null;
  defaultLevel?: Role | null;
}

export async function updateCollection(db: Db, collection: Collection, patch: CollectionPatch): Promise<Collection> {
  const changes: Partial<Collection> = { updatedAt: new Date() };
  if (patch.title !== undefined) changes.title = patch.title;
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.defaultLevel !== undefined) changes.defaultLevel = patch.defaultLevel;
  await db.update(Collection, { id: collection.id }, changes);
  return Object.assign(collection, changes);
}

/**
 * Deletes an empty collection. One that still holds collections or live spaces is refused (409), so
 * nothing is lost silently. Soft-deleted spaces inside take the collection's place in its parent,
 * so restoring them still lands somewhere that exists.
 */
export async function deleteCollection(db: Db, collection: Collection): Promise<void> {
  const collections = await db.countBy(Collection, { parentId: collection.id });
  const spaces = await db.countBy(Space, { parentId: collection.id, deletedAt: IsNull() });
  if (collections || spaces) {
    throw conflict(
      `the collection is not empty (${spaces} spaces, ${collections} collections): move or delete them first`,
    );
  }
  await db.update(Space, { parentId: collection.id }, { parentId: collection.parentId, position: collection.position });
  await db.delete(ContentGrant, { targetKind: 'collection', targetId: collection.id });
  await db.delete(Collection, { id: collection.id });
}

/** Ids of the collection and every collection below it. */
export async function subtreeCollectionIds(db: Db, root: Collection): Promise<string[]> {
  const ids = [root.id];
  for (let level = [root.id]; level.length; ) {
    const children = await db.find(Collection, { where: { parentId: In(level) }, select: { id: true } });
    level = children.map((c) => c.id);
    ids.push(...level);
  }
  return ids;
}
