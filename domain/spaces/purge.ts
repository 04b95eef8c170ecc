/**
 * Permanent removal of a deleted space in bounded batches. Each table holding rows of a space is
 * listed once here; later features add their tables to SPACE_OWNED_TABLES.
 */

import { Space } from '../../entities/Space';
import { type Db, databaseNow } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import { JOB_FAILURES, type JobRef } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { jobRef } from '../jobs/job-kind';
import { lockCurrentJob, lockJobRow, markJobStarted } from '../jobs/job-lifecycle';
import { Liveness, UNWATCHED } from '../jobs/liveness';
import { purgeDueAt } from './deletion';
import { spacePurgeJob } from './purge-job';
import { reclaimSpaceContent } from './reclaim';

export interface SpaceOwnedTable {
  table: string;
  /** SQL condition selecting the rows of space `:spaceId`. */
  where: string;
  /** Deleted whole in the last step, after the content they reference was reclaimed (reclaim.ts). */
  last?: true;
}

export const SPACE_OWNED_TABLES: SpaceOwnedTable[] = [
  { table: 'content_grants', where: "targetKind = 'space' AND targetId = :spaceId" },
  // Comment threads, children before parents. A parent still holding children (a child table hit the
  // batch limit) waits for the next batch, so no child is ever left unreachable from the space.
  {
    table: 'comment_reactions',
    where:
      "targetKind = 'reply' AND targetId IN (SELECT r.id FROM comment_replies r INNER JOIN comments c ON c.id = r.commentId WHERE c.spaceId = :spaceId)",
  },
  {
    table: 'comment_reactions',
    where: "targetKind = 'comment' AND targetId IN (SELECT c.id FROM comments c WHERE c.spaceId = :spaceId)",
  },
  {
    table: 'comment_replies',
    where:
      "commentId IN (SELECT c.id FROM comments c WHERE c.spaceId = :spaceId) AND NOT EXISTS (SELECT 1 FROM comment_reactions x WHERE x.targetKind = 'reply' AND x.targetId = comment_replies.id)",
  },
  {
    table: 'comments',
    where:
      "spaceId = :spaceId AND NOT EXISTS (SELECT 1 FROM comment_replies r WHERE r.commentId = comments.id) AND NOT EXISTS (SELECT 1 FROM comment_reactions x WHERE x.targetKind = 'comment' AND x.targetId = comments.id)",
  },
  // Translations of the space, each page hash before its translation (a result space stays, an ordinary space).
  {
    table: 'translation_pages',
    where: 'translationId IN (SELECT t.id FROM translations t WHERE t.sourceSpaceId = :spaceId)',
  },
  {
    table: 'translations',
    where:
      'sourceSpaceId = :spaceId AND NOT EXISTS (SELECT 1 FROM translation_pages p WHERE p.translationId = translations.id)',
  },
  { table: 'search_sections', where: 'spaceId = :spaceId' },
  { table: 'search_pages', where: 'spaceId = :spaceId' },
  { table: 'space_links', where: 'spaceId = :spaceId' },
  // a change request's reviews and the reviews asked of people, before the change requests they belong to
  { table: 'change_request_reviews', where: 'spaceId = :spaceId' },
  {
    table: 'change_request_requested_reviewers',
    where: 'changeRequestId IN (SELECT c.id FROM change_requests c WHERE c.spaceId = :spaceId)',
  },
  { table: 'change_requests', where: 'spaceId = :spaceId' },
  // A run ends by removing its staging; its committed images are the revisions' files, reclaimed below.
  { table: 'import_runs', where: 'spaceId = :spaceId' },
  // the integrations installed on the space (they stopped covering it when it was deleted)
  { table: 'integration_space_installations', where: 'spaceId = :spaceId' },
  // A section whose every variant is this space goes with it (as deleting its last site space would);
  // they are found through the space's site spaces, so those go last.
  {
    table: 'site_sections',
    where:
      'id IN (SELECT m.sectionId FROM site_spaces m WHERE m.spaceId = :spaceId) AND NOT EXISTS (SELECT 1 FROM site_spaces o WHERE o.sectionId = site_sections.id AND o.spaceId <> :spaceId)',
  },
  { table: 'revisions', where: 'spaceId = :spaceId', last: true },
  // a few rows (one per site, section or variant showing the space), so not batched
  { table: 'site_spaces', where: 'spaceId = :spaceId', last: true },
];

/**
 * Tables with a `spaceId` column whose rows outlive the space's purge, each with the reason. A test
 * checks the schema: every table with a `spaceId` column is purged or listed here.
 */
export const SPACE_KEYED_TABLES_KEPT: Record<string, string> = {
  pdf_exports:
    'PDF exports and their files go with the pdf-export retention (PDF_RETENTION_SECONDS), which removes blobs too',
  integration_events:
    "an integration's event log, read by its owner organization, not the space's: events go with the integration-dispatch retention (INTEGRATION_EVENT_RETENTION_SECONDS)",
};

async function deleteOwned(db: Db, owned: SpaceOwnedTable, spaceId: string, limit: number | null): Promise<number> {
  const [sql, params] = db.connection.driver.escapeQueryWithParameters(
    `DELETE FROM \`${owned.table}\` WHERE ${owned.where}${limit === null ? '' : ` LIMIT ${Number(limit)}`}`,
    { spaceId },
  );
  return (await db.query(sql, params)).affectedRows ?? 0;
}

/**
 * How long the purge of `ref` still waits (0: due), by the database's clock, as a restore decides restorable
 * (deletion.ts). A run whose generation moved on (a restore withdrew it, a later deletion owns the row) or whose
 * space is gone or no longer deleted is SUPERSEDED.
 */
export async function purgeWait(db: Db, ref: JobRef, retentionSeconds: number): Promise<number> {
  const now = await databaseNow(db);
  const space = await db.findOneBy(Space, { id: ref.resourceId });
  if (!space || space.purge.generation !== ref.generation || !space.deletedAt)
    throw new JobError(JOB_FAILURES.superseded, `${ref.kind}/${ref.resourceId}/${ref.generation} was withdrawn`);
  const waitMs = purgeDueAt(space.deletedAt, retentionSeconds).getTime() - now.getTime();
  return waitMs <= 0 ? 0 : Math.max(waitMs, 1000);
}

/**
 * Deletes up to `batchSize` rows per owned table of the due purge `ref`; once nothing else is left, reclaims
 * the content objects and blobs only this space referenced and deletes its revisions: `done`. The space row
 * stays until the run's finish removes it (the kind's `removesRow`), so the row records the run to its end.
 * It holds the space row's lock, as a restore does, so a restore at the deadline wins or loses whole.
 */
export async function purgeJobBatch(
  db: Db,
  blobs: BlobStore,
  ref: JobRef,
  batchSize: number,
  retentionSeconds: number,
  live: Liveness = UNWATCHED,
): Promise<'more' | 'done'> {
  await lockCurrentJob(db, spacePurgeJob, ref);
  if ((await purgeWait(db, ref, retentionSeconds)) > 0) return 'more'; // the database clock went back
  return purgeContent(db, blobs, ref.resourceId, batchSize, live);
}

async function purgeContent(
  db: Db,
  blobs: BlobStore,
  spaceId: string,
  batchSize: number,
  live: Liveness,
): Promise<'more' | 'done'> {
  let more = false;
  for (const [i, owned] of SPACE_OWNED_TABLES.entries()) {
    if (owned.last) continue;
    live.heartbeat({ done: i, total: SPACE_OWNED_TABLES.length });
    if ((await deleteOwned(db, owned, spaceId, batchSize)) >= batchSize) more = true;
  }
  if (more) return 'more';
  await reclaimSpaceContent(db, blobs, spaceId, () => live.heartbeat());
  for (const owned of SPACE_OWNED_TABLES.filter((t) => t.last)) await deleteOwned(db, owned, spaceId, null);
  return 'done';
}

/** Where a run started before the purge ran through runJob (patch `purge-runs-job`) stands. */
export type PurgeCheck =
  | { state: 'gone' }
  | { state: 'restored' }
  | { state: 'superseded' }
  | { state: 'due' }
  | { state: 'wait'; waitMs: number };

/**
 * For runs started before patch `purge-runs-job`: where the purge of `spaceId` stands. `generation` is the run's (null for a run started before the
 * job machinery, which only knows the space): a run whose generation moved on is superseded, since a
 * restore or a later deletion now owns the row. The first check of a current run marks it started.
 * Due is decided by the database's clock, as a restore decides restorable (deletion.ts).
 */
export async function checkPurge(
  db: Db,
  spaceId: string,
  retentionSeconds: number,
  generation: number | null,
): Promise<PurgeCheck> {
  const now = await databaseNow(db);
  const space = await db.findOneBy(Space, { id: spaceId });
  if (!space) return { state: 'gone' };
  if (generation !== null && space.purge.generation !== generation) return { state: 'superseded' };
  if (!space.deletedAt) return { state: 'restored' };
  if (generation !== null && !space.purge.startedAt)
    await markJobStarted(db, spacePurgeJob, jobRef(spacePurgeJob, space), now);
  const waitMs = purgeDueAt(space.deletedAt, retentionSeconds).getTime() - now.getTime();
  return waitMs <= 0 ? { state: 'due' } : { state: 'wait', waitMs: Math.max(waitMs, 1000) };
}

export type PurgeBatch = { state: 'restored' } | { state: 'superseded' } | { state: 'more' } | { state: 'purged' };

/**
 * For runs started before patch `purge-runs-job`: purgeJobBatch's work, and the space row deleted with the last
 * batch. It heartbeats per table and per step of the reclaim.
 */
export async function purgeBatch(
  db: Db,
  blobs: BlobStore,
  spaceId: string,
  batchSize: number,
  retentionSeconds: number,
  generation: number | null,
  live: Liveness = UNWATCHED,
): Promise<PurgeBatch> {
  if (!(await lockJobRow(db, spacePurgeJob, spaceId))) return { state: 'purged' };
  const check = await checkPurge(db, spaceId, retentionSeconds, generation);
  if (check.state === 'gone') return { state: 'purged' };
  if (check.state === 'superseded') return check;
  if (check.state !== 'due') return { state: 'restored' };
  if ((await purgeContent(db, blobs, spaceId, batchSize, live)) === 'more') return { state: 'more' };
  await db.delete(Space, { id: spaceId });
  return { state: 'purged' };
}
