/**
 * The PDF of a change request (GitBook's getChangeRequestPDF). The request finds or creates the
 * export of the change request's revision with its options and asks for a render unless one is
 * done or under way (domain/pdf/exports.ts); it then awaits the render up to PDF_WAIT_SECONDS and
 * answers from the export's row: 200 with a signed URL of the file, or 202 with Retry-After.
 */
import { authorize } from '../../../domain/access/authorize';
import { awaitJobRun } from '../../../domain/jobs/kinds';
import { pdfExportJob } from '../../../domain/pdf/export-job';
import { pdfExportOutcome, pdfFileName, pdfOptions, requestPdfExport } from '../../../domain/pdf/exports';
import { PDF_FAILURES } from '../../../domain/pdf/manuscript';
import { PdfExport } from '../../../entities/PdfExport';
import { inTransaction } from '../../../platform/db/transactions';
import { chosenWait } from '../../../platform/deadline';
import { loadChangeRequest, loadSpace } from '../../loaders';
import type { ApiBuilder } from '../../operation';
import { pdfPendingSchema, pdfUrlSchema, presentPdfPending } from '../../presenters/pdf-export';
import { changeRequestIdParams, changeRequestPdfQuery } from './schema';

export function changeRequestPdfRoutes(api: ApiBuilder): void {
  const { ds, config, temporal, blobs } = api.deps;

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
      operationId: 'getChangeRequestPDF',
      tags: ['change-requests'],
      summary: 'Get a URL of the content of a change request as PDF',
      description:
        "Renders the change request's current revision (or one page, with `page` and `only`) as a PDF through the " +
        '`pdf-export` job, and answers a signed URL of the file once it is ready: a render takes seconds to minutes, ' +
        'so the request waits up to PDF_WAIT_SECONDS and otherwise answers 202 with the job to follow ' +
        '(`node dist/cli/main.js jobs watch <changeRequestId>`). The same revision with the same options is rendered ' +
        'once and reused while it is kept (PDF_RETENTION_SECONDS). Any caller who can view the space may ask.',
      params: changeRequestIdParams,
      query: changeRequestPdfQuery,
      responses: {
        200: { description: 'URL of the PDF', schema: pdfUrlSchema },
        202: {
          description:
            "The PDF is being rendered beyond PDF_WAIT_SECONDS: ask again after the Retry-After header's seconds. `job` names the render: `node dist/cli/main.js jobs watch <changeRequestId>` follows it, and its workflow id finds it in the Temporal Web UI",
          schema: pdfPendingSchema,
        },
        413: { description: 'The PDF would pass PDF_MAX_SHEETS or PDF_MAX_BYTES (PDF_TOO_LARGE)' },
        503: { description: 'The render failed; asking again renders anew (Retry-After)' },
      },
    },
    async ({ params, query, access }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'view');
      const changeRequest = await loadChangeRequest(access, space, params.changeRequestId);
      const options = pdfOptions(query);
      const ticket = await inTransaction(api.deps, (db) => requestPdfExport(db, space, changeRequest, options));
      await awaitJobRun(temporal, pdfExportJob, ticket.row, chosenWait(config.pdf.waitSeconds * 1000));
      const row = (await ds.manager.findOneBy(PdfExport, { id: ticket.row.id })) ?? ticket.row;
      const outcome = pdfExportOutcome(row);
      const retryAfter = String(config.pdf.retryAfterSeconds);
      if (outcome.state === 'ready') {
        const url = await blobs.downloadUrl(outcome.fileKey, {
          filename: pdfFileName(space, changeRequest),
          contentType: 'application/pdf',
          ttlSeconds: config.pdf.urlTtlSeconds,
        });
        return { status: 200, body: { url } };
      }
      if (outcome.state === 'failed' && outcome.code === PDF_FAILURES.tooLarge) {
        // the client's content, not the service: no Retry-After (asking again renders again, up to the same bound)
        return {
          status: 413,
          body: {
            error: { code: 413, message: `the PDF could not be rendered (${outcome.code}: ${outcome.message})` },
          },
        };
      }
      if (outcome.state === 'failed') {
        return {
          status: 503,
          headers: { 'Retry-After': retryAfter },
          body: {
            error: { code: 503, message: `the PDF could not be rendered (${outcome.code}: ${outcome.message})` },
          },
        };
      }
      return {
        status: 202,
        headers: { 'Retry-After': retryAfter },
        body: presentPdfPending(outcome, config.pdf.retryAfterSeconds, row),
      };
    },
  );
}
