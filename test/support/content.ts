/** Rows of content for tests that need spaces, collections and grants on them to exist, without going through their API. */
import type { DataSource } from 'typeorm';
import type { Role } from '../../domain/access/roles';
import { newId } from '../../domain/ids';
import { Collection } from '../../entities/Collection';
import { ContentGrant } from '../../entities/ContentGrant';
import { idleJobState } from '../../entities/JobState';
import type { Organization } from '../../entities/Organization';
import { Space } from '../../entities/Space';
import { inTransaction } from '../../platform/db/transactions';

export async function insertCollection(
  ds: DataSource,
  org: Organization,
  options: { parentId?: string; defaultLevel?: Role | null } = {},
): Promise<Collection> {
  const now = new Date();
  const collection = ds.manager.create(Collection, {
    id: newId(),
    organizationId: org.id,
    parentId: options.parentId ?? null,
    title: 'Collection',
    description: null,
    defaultLevel: options.defaultLevel ?? null,
    position: 0,
    createdAt: now,
    updatedAt: now,
  });
  await ds.manager.insert(Collection, collection);
  return collection;
}

export async function insertSpace(
  ds: DataSource,
  org: Organization,
  options: { parentId?: string; deleted?: boolean; defaultLevel?: Role | null } = {},
): Promise<Space> {
  const now = new Date();
  const space = ds.manager.create(Space, {
    id: newId(),
    organizationId: org.id,
    parentId: options.parentId ?? null,
    title: 'Space',
    emoji: null,
    visibility: 'private',
    editMode: 'live',
    language: 'en',
    defaultLevel: options.defaultLevel ?? null,
    revisionId: null,
    position: 0,
    createdAt: now,
    updatedAt: now,
    deletedAt: options.deleted ? now : null,
    changeRequestsCount: 0,
    changeRequestsOpenCount: 0,
    changeRequestsDraftCount: 0,
    openCommentsCount: 0,
    purge: idleJobState(),
  });
  await ds.manager.insert(Space, space);
  return space;
}

/** Gives a user (or a team) a role on a space or collection, without the grants API. */
export async function grant(
  ds: DataSource,
  orgId: string,
  targetKind: 'space' | 'collection',
  targetId: string,
  principalId: string,
  role: ContentGrant['role'],
  principalKind: 'user' | 'team' = 'user',
): Promise<void> {
  await inTransaction(ds, (db) =>
    db.insert(ContentGrant, {
      targetKind,
      targetId,
      principalKind,
      principalId,
      organizationId: orgId,
      role,
      createdAt: new Date(),
    }),
  );
}
