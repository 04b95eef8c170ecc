/** The retention of the translation-run kind: intermediate blobs of failed runs go after a while. */
import { IsNull, LessThan, Not } from 'typeorm';
import { Translation } from '../../entities/Translation';
import type { Config } from '../../platform/config';
import { Db, inTransaction } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import { removeRunBlobs } from './run-blobs';

/**
 * Removes the blobs of runs that ended (a completed run removes its own; these failed) more than
 * TRANSLATION_STAGING_RETENTION_SECONDS ago. Each row is re-checked under its lock, so a run that
 * started meanwhile keeps its blobs.
 */
export async function expireStagedRuns(db: Db, config: Config, now: Date, blobs: BlobStore): Promise<number> {
  const cutoff = new Date(now.getTime() - config.translation.stagingRetentionSeconds * 1000);
  const where = { stagedGeneration: Not(IsNull()), run: { finishedAt: LessThan(cutoff) } };
  let removed = 0;
  for (const { id } of await db.find(Translation, { select: { id: true }, where, take: 500 })) {
    removed += await inTransaction(db.connection, async (tx) => {
      const row = await tx.findOne(Translation, { where: { id, ...where }, lock: { mode: 'pessimistic_write' } });
      if (!row || row.stagedGeneration === null) return 0;
      await removeRunBlobs(blobs, row.id, row.stagedGeneration);
      await tx.update(Translation, { id: row.id }, { stagedGeneration: null });
      return 1;
    });
  }
  return removed;
}
