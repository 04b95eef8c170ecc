/** The retention of the content-import kind: runs finished longer ago than IMPORT_RETENTION_SECONDS go. */
import { LessThan } from 'typeorm';
import { ImportRun } from '../../entities/ImportRun';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';

const BATCH = 500;

/** Removes expired runs in batches. Their staging went when each run ended; their revisions stay. */
export async function expireImportRuns(db: Db, config: Config, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - config.imports.retentionSeconds * 1000);
  let removed = 0;
  for (;;) {
    const batch = await db.find(ImportRun, {
      select: { id: true },
      where: { process: { finishedAt: LessThan(cutoff) } },
      take: BATCH,
    });
    if (batch.length)
      removed +=
        (
          await db.delete(
            ImportRun,
            batch.map((r) => r.id),
          )
        ).affected ?? 0;
    if (batch.length < BATCH) return removed;
  }
}
