/**
 * Soft deletion and restore of spaces. A deletion asks for the space-purge job and a restore
 * withdraws it, each in the transaction that holds the space row's lock (lockSpace), so the
 * request and the job's generation never drift apart (docs/jobs.md).
 */

import { Space } from '../../entities/Space';
import type { WorkTx } from '../../platform/db/after-commit';
import { type Db, databaseNow } from '../../platform/db/transactions';
import { refreshSpaceLinks } from '../content/indexer';
import { notFound } from '../errors';
import { JobTicket } from '../jobs/job-kind';
import { currentJob, lockJobRow, requestJob, withdrawJob } from '../jobs/job-lifecycle';
import { spacePurgeJob } from './purge-job';

/** When a space deleted at `deletedAt` becomes due for permanent removal. */
export function purgeDueAt(deletedAt: Date, retentionSeconds: number): Date {
  return new Date(deletedAt.getTime() + retentionSeconds * 1000);
}

function isRestorable(space: Space, retentionSeconds: number, now: Date): boolean {
  return !!space.deletedAt && purgeDueAt(space.deletedAt, retentionSeconds) > now;
}

/** The space row, locked for the rest of the transaction; deleted spaces included. */
export async function lockSpace(db: Db, spaceId: string): Promise<Space> {
  const space = await lockJobRow(db, spacePurgeJob, spaceId);
  if (!space) throw notFound('space');
  return space;
}

/**
 * Marks the locked space deleted and asks for its purge. An already deleted space keeps its first
 * deletedAt and its purge; the ticket then only restarts that purge if its start was lost. Its times
 * come from the database's clock, which also decides when it is due and whether it can be restored.
 */
export async function softDeleteSpace(db: WorkTx, space: Space): Promise<JobTicket<Space>> {
  if (space.deletedAt) return currentJob(db, spacePurgeJob, space);
  const now = await databaseNow(db);
  await db.update(Space, { id: space.id }, { deletedAt: now, updatedAt: now });
  Object.assign(space, { deletedAt: now, updatedAt: now });
  await refreshSpaceLinks(db, [space.id]);
  return requestJob(db, spacePurgeJob, space, now);
}

/**
 * Brings the locked space back and withdraws its purge; past the retention it is as good as gone
 * (404). The purge's first batch takes the same lock, so a restore at the deadline wins or loses whole.
 */
export async function restoreSpace(db: WorkTx, space: Space, retentionSeconds: number): Promise<JobTicket<Space>> {
  if (!space.deletedAt) return currentJob(db, spacePurgeJob, space);
  const now = await databaseNow(db);
  if (!isRestorable(space, retentionSeconds, now)) throw notFound('space');
  await db.update(Space, { id: space.id }, { deletedAt: null, updatedAt: now });
  Object.assign(space, { deletedAt: null, updatedAt: now });
  await refreshSpaceLinks(db, [space.id]);
  return withdrawJob(db, spacePurgeJob, space);
}
