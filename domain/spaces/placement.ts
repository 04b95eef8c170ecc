/** Moving a space among collections of its organization, and transferring it to another organization or collection. */

import { ContentGrant } from '../../entities/ContentGrant';
import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { lastPosition, Placement, positionAmongSiblings } from '../collections/ordering';
import { refreshSpaceLinks } from '../content/indexer';
import { conflict } from '../errors';
import { removeSpaceFromSites } from '../sites/removal';

/** Moves under `parentId` (null: organization root), last or at `placement` among the new siblings. */
export async function moveSpace(db: Db, space: Space, parentId: string | null, placement?: Placement): Promise<Space> {
  const position = await positionAmongSiblings(db, space.organizationId, parentId, placement, {
    ref: { kind: 'space', id: space.id },
    currentParentId: space.parentId,
  });
  const changes = { parentId, position, updatedAt: new Date() };
  await db.update(Space, { id: space.id }, changes);
  return Object.assign(space, changes);
}

export interface TransferTarget {
  organizationId: string;
  parentId: string | null;
}

/**
 * Resolves a transfer request: the organization defaults to the current one; without a parent the
 * space keeps its collection within its organization and lands at the root of another one.
 */
export function transferTarget(space: Space, request: { organization?: string; parent?: string }): TransferTarget {
  const organizationId = request.organization ?? space.organizationId;
  const parentId = request.parent ?? (organizationId === space.organizationId ? space.parentId : null);
  return { organizationId, parentId };
}

/**
 * Transfers the space, last under its new parent. Leaving the organization drops its explicit grants
 * (they name users and teams of the old one) and takes it out of the old one's sites.
 */
export async function transferSpace(db: Db, space: Space, target: TransferTarget): Promise<Space> {
  const leavesOrganization = target.organizationId !== space.organizationId;
  if (!leavesOrganization && target.parentId === space.parentId)
    throw conflict('the transfer would not change anything');
  if (leavesOrganization) await removeSpaceFromSites(db, space.organizationId, space.id);
  const changes = {
    organizationId: target.organizationId,
    parentId: target.parentId,
    position: await lastPosition(db, target.organizationId, target.parentId),
    updatedAt: new Date(),
  };
  await db.update(Space, { id: space.id }, changes);
  if (leavesOrganization) {
    await db.delete(ContentGrant, { targetKind: 'space', targetId: space.id });
    await refreshSpaceLinks(db, [space.id]);
  }
  return Object.assign(space, changes);
}
