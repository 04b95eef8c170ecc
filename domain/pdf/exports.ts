/**
 * Asking for the PDF of a change request, or of a space: the options are checked against its current
 * revision, the export row of (change request or none, revision, options) is found or created, and a
 * render is asked for unless one is done or under way. What the request answers is read from that row.
 */

import { createHash } from 'crypto';
import type { ChangeRequest } from '../../entities/ChangeRequest';
import { idleJobState } from '../../entities/JobState';
import { PdfExport } from '../../entities/PdfExport';
import type { Space } from '../../entities/Space';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import { lockHead } from '../content/heads';
import { ObjectStore } from '../content/objects';
import { ContentReader } from '../content/reader';
import { loadRevision } from '../content/revisions';
import { badRequest } from '../errors';
import { JobTicket, jobStatus } from '../jobs/job-kind';
import { currentJob, lockJobRow, requestJob } from '../jobs/job-lifecycle';
import { pdfExportJob } from './export-job';

export interface PdfOptions {
  /** The page to start from; null: every page. */
  pageId: string | null;
  /** That page alone, without its descendants. */
  only: boolean;
}

/** The same change request (null: the space itself), revision and options always name the same export. */
export function pdfExportId(changeRequestId: string | null, revisionId: string, options: PdfOptions): string {
  return createHash('sha256')
    .update(JSON.stringify([changeRequestId, revisionId, options.pageId, options.only]))
    .digest('base64url')
    .slice(0, 20);
}

/** `only` narrows a page's export to that page: without a page it means nothing, and is refused. */
export function pdfOptions(query: { page?: string; only?: boolean }): PdfOptions {
  if (query.only && !query.page) throw badRequest('only: true needs a page');
  return { pageId: query.page ?? null, only: query.page ? (query.only ?? false) : false };
}

async function assertPageOfRevision(db: Db, revisionId: string, pageId: string, whose: string): Promise<void> {
  const revision = await loadRevision(db, revisionId);
  if (!(await new ContentReader(new ObjectStore(db), revision.root).entry(pageId))) {
    throw badRequest(`page: must be a page of ${whose} revision`);
  }
}

/**
 * Finds or creates the export of the current revision of the change request (null: of the space) with
 * `options`, locked for the rest of the transaction, and notes the request (the retention counts from it).
 * A render is asked for when none was, or the last one failed; a finished or running one is reused.
 */
export async function requestPdfExport(
  db: WorkTx,
  space: Space,
  changeRequest: ChangeRequest | null,
  options: PdfOptions,
  now = new Date(),
): Promise<JobTicket<PdfExport>> {
  // a space never written to gets its initial (empty) revision, as when its content is read
  const revisionId =
    changeRequest?.revisionId ??
    space.revisionId ??
    (await lockHead(db, { kind: 'space', spaceId: space.id })).revision.id;
  if (options.pageId)
    await assertPageOfRevision(db, revisionId, options.pageId, changeRequest ? "the change request's" : "the space's");
  const id = pdfExportId(changeRequest?.id ?? null, revisionId, options);
  await db
    .createQueryBuilder()
    .insert()
    .into(PdfExport)
    .values({
      id,
      organizationId: space.organizationId,
      spaceId: space.id,
      changeRequestId: changeRequest?.id ?? null,
      revisionId,
      pageId: options.pageId,
      only: options.only,
      fileKey: null,
      filePages: null,
      fileBytes: null,
      createdAt: now,
      lastRequestedAt: now,
      render: idleJobState(),
    })
    // an existing row is updated, not ignored: the update takes its exclusive lock at once, where an ignored
    // insert took a shared one, and two requests holding it both asking for the exclusive lock deadlocked (503)
    .orUpdate(['lastRequestedAt'], ['id'])
    .execute();
  const row = (await lockJobRow(db, pdfExportJob, id))!;
  const status = jobStatus(row.render);
  if (status === 'succeeded' && row.fileKey) return { kind: pdfExportJob, row, start: false, superseded: null };
  if (status === 'pending' || status === 'running') return currentJob(db, pdfExportJob, row);
  return requestJob(db, pdfExportJob, row, now);
}

export type PdfExportOutcome =
  | { state: 'ready'; fileKey: string }
  | { state: 'failed'; code: string; message: string }
  | { state: 'pending' | 'running'; done: number; total: number | null };

/** Where an export stands, from its row: its kind's public status (export-job.ts), with the file or the failure. */
export function pdfExportOutcome(row: PdfExport): PdfExportOutcome {
  const status = pdfExportJob.publicStatus(row.render);
  if (status === 'ready' && row.fileKey) return { state: 'ready', fileKey: row.fileKey };
  if (status === 'failed') {
    return {
      state: 'failed',
      code: row.render.errorCode ?? 'JOB_FAILED',
      message: row.render.errorMessages?.[0]?.message ?? 'the render failed',
    };
  }
  return {
    state: status === 'running' ? 'running' : 'pending',
    done: row.render.progressDone,
    total: row.render.progressTotal,
  };
}

/** The file name the download offers: the space, and the change request's number for a change request's. */
export function pdfFileName(space: Space, changeRequest: ChangeRequest | null): string {
  const title = space.title.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'space';
  return changeRequest ? `${title} - change request ${changeRequest.number}.pdf` : `${title}.pdf`;
}
