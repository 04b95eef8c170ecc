/** Soft deletion and restore of spaces; permanent removal is the space-purge workflow's job. */
import { IsNull, LessThanOrEqual } from 'typeorm';
import type { Db } from '../db';
import { notFound } from '../errors';
import { Space } from '../../entities/Space';
import { refreshSpaceLinks } from '../content/indexer';

/** When a space deleted at `deletedAt` becomes due for permanent removal. */
export function purgeDueAt(deletedAt: Date, retentionSeconds: number): Date {
  return new Date(deletedAt.getTime() + retentionSeconds * 1000);
}

export function isRestorable(space: Space, retentionSeconds: number, now = new Date()): boolean {
  return !!space.deletedAt && purgeDueAt(space.deletedAt, retentionSeconds) > now;
}

/** Marks the space deleted (idempotent: an already deleted space keeps its first deletedAt). */
export async function softDeleteSpace(db: Db, space: Space): Promise<Space> {
  if (space.deletedAt) return space;
  const now = new Date();
  space.deletedAt = now;
  space.updatedAt = now;
  space.purgeStartedAt = null;
  await db.update(Space, { id: space.id }, { deletedAt: now, updatedAt: now, purgeStartedAt: null });
  await refreshSpaceLinks(db, [space.id]);
  return space;
}

/** Brings a deleted space back; past the retention it is as good as gone (404). */
export async function restoreSpace(db: Db, space: Space, retentionSeconds: number): Promise<Space> {
  if (!space.deletedAt) return space;
  if (!isRestorable(space, retentionSeconds)) throw notFound('space');
  const now = new Date();
  await db.update(Space, { id: space.id }, { deletedAt: null, purgeStartedAt: null, updatedAt: now });
  await refreshSpaceLinks(db, [space.id]);
  Object.assign(space, { deletedAt: null, purgeStartedAt: null, updatedAt: now });
  return space;
}

/** Records that the purge workflow runs for this deletion, so the reconciler skips it. */
export async function markPurgeStarted(db: Db, spaceId: string, deletedAt: Date): Promise<void> {
  await db.update(Space, { id: spaceId, deletedAt, purgeStartedAt: IsNull() }, { purgeStartedAt: new Date() });
}

/** Deleted spaces whose purge workflow is not known to be started, older than `graceSeconds`. */
export async function spacesMissingPurge(db: Db, graceSeconds: number, limit: number): Promise<Space[]> {
  return db.find(Space, {
    where: { deletedAt: LessThanOrEqual(new Date(Date.now() - graceSeconds * 1000)), purgeStartedAt: IsNull() },
    order: { deletedAt: 'ASC' },
    take: limit,
  });
}
