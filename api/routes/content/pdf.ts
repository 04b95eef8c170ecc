/**
 * The PDF of a change request or of a space (GitBook's getChangeRequestPDF and getSpacePDF), one operation
 * mounted for both. The request finds or creates the export of the current revision with its options and asks for
 * a render unless one is done or under way (domain/pdf/exports.ts); it then awaits the render up to
 * PDF_WAIT_SECONDS and answers from the export's row: 200 with a signed URL of the file, or 202 with Retry-After.
 */
import type { ZodRawShape } from 'zod';
import { authorize } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { awaitJobRun } from '../../../domain/jobs/kinds';
import { pdfExportJob } from '../../../domain/pdf/export-job';
import { pdfExportOutcome, pdfFileName, pdfOptions, requestPdfExport } from '../../../domain/pdf/exports';
import { PDF_FAILURES } from '../../../domain/pdf/manuscript';
import type { ChangeRequest } from '../../../entities/ChangeRequest';
import { PdfExport } from '../../../entities/PdfExport';
import type { Space } from '../../../entities/Space';
import { inTransaction } from '../../../platform/db/transactions';
import { chosenWait } from '../../../platform/deadline';
import { loadChangeRequest, loadSpace } from '../../loaders';
import type { ApiBuilder } from '../../operation';
import { pdfPendingSchema, pdfUrlSchema, presentPdfPending } from '../../presenters/pdf-export';
import { changeRequestIdParams } from '../change-requests/schema';
import { spaceIdParams } from '../spaces/schema';
import { pdfQuery } from './schema';

interface PdfForm {
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  params: ZodRawShape;
  /** whose current revision is rendered, as the descriptions say it */
  whose: string;
  /** what `jobs watch` is given to follow the render */
  watched: string;
  /** GitBook's operation beyond the spec's tables */
  extension: boolean;
  /** the space (viewable by the caller: 404 otherwise) and the change request the path names, if any */
  load(
    access: AccessContext,
    params: Record<string, string>,
  ): Promise<{ space: Space; changeRequest: ChangeRequest | null }>;
}

async function viewableSpace(access: AccessContext, spaceId: string): Promise<Space> {
  const space = await loadSpace(access, spaceId);
  await authorize(access, { kind: 'space', space }, 'view');
  return space;
}

const PDF_FORMS: PdfForm[] = [
  {
    path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
    operationId: 'getChangeRequestPDF',
    tags: ['change-requests'],
    summary: 'Get a URL of the content of a change request as PDF',
    params: changeRequestIdParams,
    whose: "the change request's",
    watched: '<changeRequestId>',
    extension: false,
    load: async (access, params) => {
      const space = await viewableSpace(access, params.spaceId);
      return { space, changeRequest: await loadChangeRequest(access, space, params.changeRequestId) };
    },
  },
  {
    path: '/v1/spaces/{spaceId}/pdf',
    operationId: 'getSpacePDF',
    tags: ['spaces'],
    summary: 'Get a URL of the content of a space as PDF',
    params: spaceIdParams,
    whose: "the space's",
    watched: '<spaceId>',
    extension: true,
    load: async (access, params) => ({ space: await viewableSpace(access, params.spaceId), changeRequest: null }),
  },
];

export function pdfRoutes(api: ApiBuilder): void {
  for (const form of PDF_FORMS) pdfOperation(api, form);
}

function pdfOperation(api: ApiBuilder, form: PdfForm): void {
  const { ds, config, temporal, blobs } = api.deps;

  api.op(
    {
      method: 'get',
      path: form.path,
      operationId: form.operationId,
      tags: form.tags,
      extension: form.extension,
      summary: form.summary,
      description:
        `Renders ${form.whose} current revision (or one page, with \`page\` and \`only\`) as a PDF through the ` +
        '`pdf-export` job, and answers a signed URL of the file once it is ready: a render takes seconds to minutes, ' +
        'so the request waits up to PDF_WAIT_SECONDS and otherwise answers 202 with the job to follow ' +
        `(\`node dist/cli/main.js jobs watch ${form.watched}\`). The same revision with the same options is rendered ` +
        'once and reused while it is kept (PDF_RETENTION_SECONDS). Any caller who can view the space may ask.',
      params: form.params,
      query: pdfQuery(form.whose),
      responses: {
        200: { description: 'URL of the PDF', schema: pdfUrlSchema },
        202: {
          description: `The PDF is being rendered beyond PDF_WAIT_SECONDS: ask again after the Retry-After header's seconds. \`job\` names the render: \`node dist/cli/main.js jobs watch ${form.watched}\` follows it, and its workflow id finds it in the Temporal Web UI`,
          schema: pdfPendingSchema,
        },
        413: { description: 'The PDF would pass PDF_MAX_SHEETS or PDF_MAX_BYTES (PDF_TOO_LARGE)' },
        503: { description: 'The render failed; asking again renders anew (Retry-After)' },
      },
    },
    async ({ params, query, access }) => {
      const { space, changeRequest } = await form.load(access, params);
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
