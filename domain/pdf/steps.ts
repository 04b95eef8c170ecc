/**
 * The steps of the pdf-export job, each idempotent and a no-op once the export's generation moved
 * on (lockCurrentJob): collect the pages into a manuscript blob, render it into the PDF's blob,
 * record the file on the row. Only blob keys travel between them.
 */
import * as path from 'path';
import type { DataSource } from 'typeorm';
import { PdfExport } from '../../entities/PdfExport';
import { inTransaction } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import { withTempDir } from '../../platform/storage/temp-dir';
import type { JobRef, RenderedFile } from '../jobs/contracts';
import { lockCurrentJob, reportJobProgress } from '../jobs/job-lifecycle';
import type { Liveness } from '../jobs/liveness';
import { pdfExportJob } from './export-job';
import { manuscriptKey, pdfFileKey } from './files';
import { PdfLimits, writeManuscript } from './manuscript';
import { ManuscriptWriter, openManuscript } from './manuscript-file';
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

/** The collect step: writes the manuscript into a file, a batch of pages at a time, and stores it streamed. */
export async function collectPdfPages(deps: PdfStepDeps, ref: JobRef, live: Liveness): Promise<CollectedPages> {
  const row = await currentExport(deps, ref);
  const key = manuscriptKey(row.id);
  const pages = await withTempDir('pdf-collect-', async (dir) => {
    const file = path.join(dir, 'manuscript.jsonl');
    const out = new ManuscriptWriter(file);
    try {
      const written = await writeManuscript(deps.ds.manager, row, deps.clock(), limitsOf(deps), out);
      await out.close();
      live.heartbeat({ done: 0, total: written });
      await deps.blobs.putFile(key, file, 'application/x-ndjson');
      return written;
    } catch (err) {
      out.destroy();
      throw err;
    }
  });
  await inTransaction(deps.ds, (db) => reportJobProgress(db, pdfExportJob, ref, 0, pages));
  return { manuscriptKey: key, pages };
}

export async function renderPdfFile(
  deps: PdfStepDeps,
  ref: JobRef,
  collected: CollectedPages,
  live: Liveness,
): Promise<RenderedFile> {
  const row = await currentExport(deps, ref);
  const fileKey = pdfFileKey(row.id);
  // the manuscript comes in, and the PDF goes out, through files: memory holds a page and a sheet
  return withTempDir('pdf-render-', async (dir) => {
    const manuscriptFile = path.join(dir, 'manuscript.jsonl');
    await deps.blobs.download(collected.manuscriptKey, manuscriptFile);
    const source = await openManuscript(manuscriptFile);
    const pdfFile = path.join(dir, 'export.pdf');
    let reported = Date.now();
    const pdf = await renderPdf(
      source,
      {
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
      },
      pdfFile,
    );
    const bytes = await deps.blobs.putFile(fileKey, pdfFile, 'application/pdf');
    return { fileKey, pages: pdf.pageCount, bytes };
  });
}

export async function savePdfFile(deps: PdfStepDeps, ref: JobRef, file: RenderedFile): Promise<void> {
  await inTransaction(deps.ds, async (db) => {
    const row = await lockCurrentJob(db, pdfExportJob, ref);
    await db.update(PdfExport, { id: row.id }, { fileKey: file.fileKey, filePages: file.pages, fileBytes: file.bytes });
    await reportJobProgress(db, pdfExportJob, ref, row.render.progressTotal ?? 0, row.render.progressTotal);
  });
  await deps.blobs.delete(manuscriptKey(ref.resourceId));
}
