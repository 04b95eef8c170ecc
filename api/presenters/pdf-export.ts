/** The answers of the change-request PDF operation: the URL once rendered, or how far the render is. */
import { z } from 'zod';
import type { PdfExportOutcome } from '../../domain/pdf/exports';
import type { Presented } from '../../platform/wire/to-wire';

export const pdfUrlSchema = z.object({
  url: z
    .string()
    .url()
    .max(2048)
    .openapi({ description: 'Temporary URL of the PDF file (PDF_URL_TTL_SECONDS, one hour by default)' }),
});

export const pdfPendingSchema = z.object({
  status: z.enum(['pending', 'running']),
  progress: z.object({
    done: z.number().int().openapi({ description: 'pages rendered' }),
    total: z.number().int().nullable().openapi({ description: 'pages to render; null until they are counted' }),
  }),
  retryAfter: z
    .number()
    .int()
    .openapi({ description: 'seconds to wait before asking again, as in the Retry-After header' }),
});

export function presentPdfPending(
  outcome: Extract<PdfExportOutcome, { state: 'pending' | 'running' }>,
  retryAfter: number,
): Presented<typeof pdfPendingSchema> {
  return { status: outcome.state, progress: { done: outcome.done, total: outcome.total }, retryAfter };
}
