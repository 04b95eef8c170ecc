/**
 * The steps of the pdf-export job, each idempotent and a no-op once the export's generation moved
 * on (lockCurrentJob): collect the pages into a manuscript blob, render it into the PDF's blob,
 * record the file on the row. Only blob keys travel between them.
 */
import type { DataSource } from 'typeorm';
import { PdfExport } from '../../entities/PdfExport';
import { inTransaction } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { JobRef, RenderedFile } from '../jobs/contracts';
import { lockCurrentJob, reportJobProgress } from '../jobs/job-lifecycle';
import type { Liveness } from '../jobs/liveness';
import { pdfExportJob } from './export-job';
import { manuscriptKey, pdfFileKey } from './files';
import { buildManuscript, Manuscript, PdfLimits } from './manuscript';
import { renderPdf } from './render';

export interface PdfStepDeps {
  ds: DataSource;
  blobs: BlobStore;
  clock: () => Date;
  config: { pdf: { maxSheets: number; maxBytes: number } };
}

const limitsOf = (deps: PdfStepDeps): PdfLimits => ({
  sheets: deps.config.pdf.maxSheets,
  bytes: deps.config.pdf.maxBytes,
});

export interface CollectedPages {
  manuscriptKey: string;
  pages: number;
}

/** Progress is written at most this often while rendering. */
const PROGRESS_INTERVAL_MS = 500;

const currentExport = (deps: PdfStepDeps, ref: JobRef) =>
  inTransaction(deps.ds, (db) => lockCurrentJob(db, pdfExportJob, ref));

export async function collectPdfPages(deps: PdfStepDeps, ref: JobRef, live: Liveness): Promise<CollectedPages> {
  const row = await currentExport(deps, ref);
  const manuscript = await buildManuscript(deps.ds.manager, row, deps.clock(), limitsOf(deps));
  live.heartbeat({ done: 0, total: manuscript.pages.length });
  const key = manuscriptKey(row.id);
  await deps.blobs.put(key, Buffer.from(JSON.stringify(manuscript)), 'application/json');
  await inTransaction(deps.ds, (db) => reportJobProgress(db, pdfExportJob, ref, 0, manuscript.pages.length));
  return { manuscriptKey: key, pages: manuscript.pages.length };
}

export async function renderPdfFile(
  deps: PdfStepDeps,
  ref: JobRef,
  collected: CollectedPages,
  live: Liveness,
): Promise<RenderedFile> {
  const row = await currentExport(deps, ref);
  const manuscript = JSON.parse((await deps.blobs.read(collected.manuscriptKey)).toString('utf8')) as Manuscript;
  let reported = Date.now();
  const pdf = await renderPdf(manuscript, {
    limits: limitsOf(deps),
    loadImage: (image) => {
      live.heartbeat();
      return deps.blobs.read(image.blob);
    },
    onPage: async (done, total) => {
      // a cancelled render stops at its next page
      live.heartbeat({ done, total });
      // reporting also stops a superseded run; in between, other work on the worker gets its turn
      if (Date.now() - reported >= PROGRESS_INTERVAL_MS) {
        reported = Date.now();
        await inTransaction(deps.ds, (db) => reportJobProgress(db, pdfExportJob, ref, done, total));
      } else await new Promise((resolve) => setImmediate(resolve));
    },
  });
  const fileKey = pdfFileKey(row.id);
  await deps.blobs.put(fileKey, pdf.bytes, 'application/pdf');
  return { fileKey, pages: pdf.pageCount, bytes: pdf.bytes.length };
}

export async function savePdfFile(deps: PdfStepDeps, ref: JobRef, file: RenderedFile): Promise<void> {
  await inTransaction(deps.ds, async (db) => {
    const row = await lockCurrentJob(db, pdfExportJob, ref);
    await db.update(PdfExport, { id: row.id }, { fileKey: file.fileKey, filePages: file.pages, fileBytes: file.bytes });
    await reportJobProgress(db, pdfExportJob, ref, row.render.progressTotal ?? 0, row.render.progressTotal);
  });
  await deps.blobs.delete(manuscriptKey(ref.resourceId));
}
