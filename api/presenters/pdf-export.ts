/** The answers of the change-request PDF operation: the URL once rendered, or how far the render is. */
import { z } from 'zod';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { pdfExportJob } from '../../domain/pdf/export-job';
import type { PdfExportOutcome } from '../../domain/pdf/exports';
import type { PdfExport } from '../../entities/PdfExport';
import type { Presented } from '../../platform/wire/to-wire';

export const pdfUrlSchema = z.object({
  url: z
    .string()
    .url()
    .max(2048)
    .openapi({ description: 'Temporary URL of the PDF file (PDF_URL_TTL_SECONDS, one hour by default)' }),
});

export const pdfPendingSchema = z.object({
  status: z
    .enum(['pending', 'running'])
    .openapi({ description: 'pending: the render waits for a worker; running: a worker renders it' }),
  progress: z
    .object({
      done: z.number().int().openapi({ description: 'pages rendered' }),
      total: z.number().int().nullable().openapi({ description: 'pages to render; null until they are counted' }),
    })
    .openapi({ description: "how far the render is, in the manuscript's pages" }),
  retryAfter: z
    .number()
    .int()
    .openapi({ description: 'seconds to wait before asking again, as in the Retry-After header' }),
  job: z
    .object({
      id: z.string().openapi({
        description:
          'id of the export the `pdf-export` job renders: `node dist/cli/main.js jobs watch <id>` follows it (so does the change request id)',
      }),
      workflowId: z.string().openapi({
        description: "the render's workflow id, to find it in the Temporal Web UI (`pdf-export/<id>/<generation>`)",
      }),
    })
    .openapi({ description: 'extension: the durable job rendering the PDF, and where to follow it' }),
});

export function presentPdfPending(
  outcome: Extract<PdfExportOutcome, { state: 'pending' | 'running' }>,
  retryAfter: number,
  row: PdfExport,
): Presented<typeof pdfPendingSchema> {
  return {
    status: outcome.state,
    progress: { done: outcome.done, total: outcome.total },
    retryAfter,
    job: { id: row.id, workflowId: jobWorkflowId(pdfExportJob, row.id, row.render.generation) },
  };
}
