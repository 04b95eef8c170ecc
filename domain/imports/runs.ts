/**
 * Import runs: asking for an import into a head (a space's content or a change request's), cancelling
 * one, and where a run stands, read from its row. One import is active per head: the same request
 * again (a client's retry) finds the run under way; a different one supersedes it.
 */

import { IsNull } from 'typeorm';
import type { ChangeRequest } from '../../entities/ChangeRequest';
import { ImportRun, ImportSource } from '../../entities/ImportRun';
import { idleJobState } from '../../entities/JobState';
import type { Space } from '../../entities/Space';
import type { WorkTx } from '../../platform/db/after-commit';

import type { Head } from '../content/heads';
import { assertWritable, lockHead } from '../content/heads';
import { badRequest } from '../errors';
import { newId } from '../ids';
import { isJobActive, JobTicket } from '../jobs/job-kind';
import { cancelJob, currentJob, requestJob } from '../jobs/job-lifecycle';
import { contentImportJob, IMPORT_RUN_STATUSES } from './import-job';

export const IMPORT_SOURCES = ['website', 'html', 'markdown', 'zip', 'docx'] as const satisfies readonly ImportSource[];

export type ImportRunStatus = (typeof IMPORT_RUN_STATUSES)[number];

export interface ImportTarget {
  space: Space;
  changeRequest: ChangeRequest | null;
  head: Head;
}

export interface ImportRequest {
  ticket: JobTicket<ImportRun>;
}

/**
 * Creates the run of an import into the target's head and asks for it, in the caller's transaction.
 * The head is locked (409 when it can no longer change), so two requests for one head take turns.
 * The runs it supersedes are cancelled: their workflows' cancels follow the commit, before its start.
 */
export async function requestImport(
  db: WorkTx,
  target: ImportTarget,
  input: { url: string; source: ImportSource },
  userId: string,
  now = new Date(),
): Promise<ImportRequest> {
  assertWritable(await lockHead(db, target.head));
  // The lock names the head's index columns only: a condition on the job columns let MariaDB filter rows
  // through their own indexes (a rowid filter on processFinishedAt), and the lock then reached the
  // in-flight runs of other organizations. The head's runs are few: retention deletes old ones.
  const headRuns = await db.find(ImportRun, {
    where: { spaceId: target.space.id, changeRequestId: target.changeRequest?.id ?? IsNull() },
    lock: { mode: 'pessimistic_write' },
  });
  const active = headRuns.filter((r) => isJobActive(r.process));
  const same = active.find((r) => r.url === input.url && r.source === input.source && r.createdById === userId);
  if (same) return { ticket: currentJob(db, contentImportJob, same) };
  for (const run of active)
    await cancelJob(db, contentImportJob, run, 'superseded by a newer import into the same content', now);
  const run = Object.assign(new ImportRun(), {
    id: newId(),
    organizationId: target.space.organizationId,
    spaceId: target.space.id,
    changeRequestId: target.changeRequest?.id ?? null,
    source: input.source,
    url: input.url,
    createdById: userId,
    revisionId: null,
    importedResources: 0,
    totalResources: 0,
    createdAt: now,
    updatedAt: now,
    process: idleJobState(),
  });
  await db.insert(ImportRun, run);
  return { ticket: await requestJob(db, contentImportJob, run, now) };
}

/** The run's public status: its kind's (import-job.ts). */
export function importRunStatus(run: ImportRun): ImportRunStatus {
  return contentImportJob.publicStatus(run.process);
}

/** Cancels a pending or running import (the caller locked its row): nothing of it is committed. */
export async function cancelImportRun(db: WorkTx, run: ImportRun, now = new Date()): Promise<JobTicket<ImportRun>> {
  const status = importRunStatus(run);
  if (run.revisionId || (status !== 'pending' && status !== 'in-progress')) {
    throw badRequest(
      `status: the import run is ${run.revisionId ? 'committed' : status}; only a pending or in-progress import can be cancelled`,
    );
  }
  return cancelJob(db, contentImportJob, run, 'cancelled by request', now);
}
