/**
 * Runs the pdf-export job through its paths, for record.ts: a rendered change request, a render whose revision is
 * gone, and a run an operator cancelled (`cli jobs cancel`) as soon as it started.
 */
import pino from 'pino';
import { createChangeRequest } from '../../../domain/content/change-requests';
import { commitToHead } from '../../../domain/content/heads';
import { jobWorkflowId } from '../../../domain/jobs/contracts';
import { JobTicket } from '../../../domain/jobs/job-kind';
import { cancelJobRun } from '../../../domain/jobs/job-operator';
import { applyJobTicket } from '../../../domain/jobs/job-start';
import { pdfExportJob } from '../../../domain/pdf/export-job';
import { requestPdfExport } from '../../../domain/pdf/exports';
import { ChangeRequest } from '../../../entities/ChangeRequest';
import { PdfExport } from '../../../entities/PdfExport';
import { Space } from '../../../entities/Space';
import { inTransaction } from '../../../platform/db/transactions';
import { insertSpace } from '../../support/content';
import { heldBack } from '../../support/held-back';
import type { Recorder } from './recorder';

export const recordPdfExport: Recorder = async ({ ds, config, temporal, org, admin }) => {
  const logger = pino({ level: 'silent' });
  const dispatch = (ticket: JobTicket<PdfExport>) => applyJobTicket(temporal, ds.manager, ticket, logger);
  const client = await temporal.getClient();
  const settle = async (ticket: JobTicket<PdfExport>) => {
    const workflowId = jobWorkflowId(pdfExportJob, ticket.row.id, ticket.row.render.generation);
    await client.workflow
      .getHandle(workflowId)
      .result()
      .catch(() => undefined);
    return workflowId;
  };
  const space = await insertSpace(ds, org);
  const changeRequest = await inTransaction(ds, (db) =>
    createChangeRequest(db, space.id, { subject: 'Recorded' }, admin.user.id),
  );
  await inTransaction(heldBack(ds), (db) =>
    commitToHead(
      db,
      { kind: 'change-request', changeRequestId: changeRequest.id },
      { type: 'edits', createdById: admin.user.id, appBaseUrl: config.appBaseUrl },
      async (editor) => {
        const guide = await editor.createPage({
          title: 'Guide',
          markdown: '## Install\n\n- one\n- two\n\n```\nnpm install\n```\n',
        });
        await editor.createPage({ title: 'Details', markdown: '| A | B |\n|---|---|\n| 1 | 2 |\n' }, { parent: guide });
      },
    ),
  );
  const rendered = await inTransaction(heldBack(ds), async (db) =>
    requestPdfExport(
      db,
      await db.findOneByOrFail(Space, { id: space.id }),
      await db.findOneByOrFail(ChangeRequest, { id: changeRequest.id }),
      { pageId: null, only: false },
    ),
  );
  await dispatch(rendered);

  // the revision disappears before collecting: PDF_SOURCE_GONE is recorded on the row
  const gone = await insertSpace(ds, org);
  const goneRequest = await inTransaction(ds, (db) => createChangeRequest(db, gone.id, {}, admin.user.id));
  const failed = await inTransaction(heldBack(ds), async (db) =>
    requestPdfExport(db, gone, goneRequest, { pageId: null, only: false }),
  );
  await ds.manager.update(PdfExport, { id: failed.row.id }, { revisionId: 'gone-revision' });
  await dispatch(failed);

  const other = await inTransaction(ds, (db) => createChangeRequest(db, space.id, {}, admin.user.id));
  const cancelled = await inTransaction(heldBack(ds), async (db) =>
    requestPdfExport(db, await db.findOneByOrFail(Space, { id: space.id }), other, { pageId: null, only: false }),
  );
  await dispatch(cancelled);
  await cancelJobRun({ ds, temporal, logger, config }, cancelled.row.id);

  return [
    { name: 'rendered', workflowId: await settle(rendered) },
    { name: 'failed', workflowId: await settle(failed) },
    { name: 'cancelled', workflowId: await settle(cancelled) },
  ];
};
