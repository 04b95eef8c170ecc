/**
 * pdf-export/<exportId>/<generation>: renders the PDF of a change request's revision. Collecting
 * reads the pages into a blob, rendering turns that blob into the PDF's blob, saving records the
 * file on the export's row; only blob keys pass between them. A failure (PDF_SOURCE_GONE when the
 * change request or its revision went away, JOB_FAILED once retries are spent) is recorded on the
 * row by runJob.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { PdfActivities } from '../activities/pdf';
import type { JobOutcome, PdfExportInput, RenderedFile } from '../domain/jobs/contracts';
import { heartbeatingActivityOptions, jobActivityOptions, runJob } from './job';

export async function pdfExport(input: PdfExportInput): Promise<JobOutcome<RenderedFile>> {
  const { savePdfFile } = proxyActivities<PdfActivities>(jobActivityOptions(input.run, '2 minutes'));
  const { collectPdfPages } = proxyActivities<PdfActivities>(heartbeatingActivityOptions(input.run, '2 minutes'));
  // a thousand pages render in seconds; the bound leaves room for large images and a busy worker, and
  // the heartbeat lets a dead worker's render be retried long before it; CPU-heavy: on the heavy queue
  const { renderPdfFile } = proxyActivities<PdfActivities>({
    ...heartbeatingActivityOptions(input.run, '10 minutes'),
    taskQueue: input.run.heavyTaskQueue,
  });
  return runJob(input.run, async () => {
    const collected = await collectPdfPages(input.run);
    const file = await renderPdfFile(input.run, collected);
    await savePdfFile(input.run, file);
    return file;
  });
}
