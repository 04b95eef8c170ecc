/** The retention of the pdf-export kind: exports nobody asked for lately go, with their blobs. */
import { LessThan } from 'typeorm';
import { PdfExport } from '../../entities/PdfExport';
import type { Config } from '../../platform/config';
import { Db, inTransaction } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import { manuscriptKey, pdfFileKey } from './files';

const BATCH = 200;

/**
 * Removes the exports last asked for before the retention, counting at least the lifetime of
 * their URLs, so no URL handed out outlives its file. Each row is re-checked under its lock, so
 * a request that touches it meanwhile keeps it; its blobs go before the row, so a crash in
 * between leaves a row that the next cleanup finds again.
 */
export async function expirePdfExports(db: Db, config: Config, now: Date, blobs: BlobStore): Promise<number> {
  const cutoff = new Date(now.getTime() - Math.max(config.pdf.retentionSeconds, config.pdf.urlTtlSeconds) * 1000);
  let removed = 0;
  for (;;) {
    const batch = await db.find(PdfExport, {
      select: { id: true },
      where: { lastRequestedAt: LessThan(cutoff) },
      take: BATCH,
    });
    for (const { id } of batch) {
      removed += await inTransaction(db.connection, async (tx) => {
        const row = await tx.findOne(PdfExport, {
          where: { id, lastRequestedAt: LessThan(cutoff) },
          lock: { mode: 'pessimistic_write' },
        });
        if (!row) return 0;
        await blobs.delete(pdfFileKey(row.id));
        await blobs.delete(manuscriptKey(row.id));
        await tx.delete(PdfExport, { id: row.id });
        return 1;
      });
    }
    if (batch.length < BATCH) return removed;
  }
}
