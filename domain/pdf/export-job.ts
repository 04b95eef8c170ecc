/**
 * The pdf-export job kind: a PDF request asks for it on the export's own row (exports.ts), and the
 * `pdfExport` workflow runs it under `pdf-export/<exportId>/<generation>`.
 */
import { PdfExport } from '../../entities/PdfExport';
import { JOB_KIND_NAMES } from '../jobs/contracts';
import { defineJobKind, jobStatus } from '../jobs/job-kind';

/** Where an export stands, as `GET …/pdf` answers it: the file (ready), a failure, or 202 while pending or running. */
export const PDF_EXPORT_STATUSES = ['pending', 'running', 'ready', 'failed'] as const;

import { expirePdfExports } from './retention';

export const pdfExportJob = defineJobKind({
  name: JOB_KIND_NAMES.pdfExport,
  workflow: 'pdfExport',
  entity: PdfExport,
  state: 'render',
  input: (row: PdfExport) => ({ exportId: row.id, organizationId: row.organizationId }),
  spaceId: (row: PdfExport) => row.spaceId,
  // the change request or the space whose PDF was asked for (the row id is derived; the 202 shows it)
  askedAbout: ['changeRequestId', 'spaceId'],
  // A request never supersedes a render under way (it awaits it); only a failed render is asked for anew.
  policy: 'supersede',
  // of the manuscript's pages, known once they are collected
  progressUnit: 'pages',
  publicStatus: (state): (typeof PDF_EXPORT_STATUSES)[number] => {
    const status = jobStatus(state);
    return status === 'succeeded' ? 'ready' : status === 'idle' ? 'pending' : status;
  },
  onLostRun: 'stay-failed',
  // room for a render (10 minutes) retried after a lost worker
  retryBudgetMs: 30 * 60 * 1000,
  retention: {
    describe:
      'PDFs not asked for during PDF_RETENTION_SECONDS (and at least the lifetime of their URLs), with their files',
    expire: expirePdfExports,
  },
});
