/**
 * Writing translations: create (which asks for the first run), replace the instructions, ask for a
 * run, delete. Each works on a row the caller locked in the request's transaction; the caller
 * dispatches the ticket after the commit (docs/jobs.md). A run asked for during a run coalesces.
 */

import { idleJobState } from '../../entities/JobState';
import type { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import { TranslationPage } from '../../entities/TranslationPage';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import { insertKeepingValues } from '../../platform/db/transactions';
import { newId } from '../ids';
import { JobTicket } from '../jobs/job-kind';
import { lockJobRow, requestJob, withdrawJob } from '../jobs/job-lifecycle';
import { translationRunJob } from './run-job';

export interface NewTranslation {
  source: Space;
  sourceLanguage: string;
  language: string;
  instructions: string;
  createdById: string;
}

export async function createTranslation(
  db: WorkTx,
  input: NewTranslation,
  now = new Date(),
): Promise<JobTicket<Translation>> {
  const translation = Object.assign(new Translation(), {
    id: newId(),
    organizationId: input.source.organizationId,
    sourceSpaceId: input.source.id,
    sourceLanguage: input.sourceLanguage,
    language: input.language,
    instructions: input.instructions,
    resultSpaceId: null,
    resultRevisionId: null,
    runs: 0,
    totalWords: 0,
    totalPages: 0,
    totalDuration: 0,
    latestRunDuration: 0,
    latestPages: 0,
    latestWords: 0,
    appliedGeneration: 0,
    stagedGeneration: null,
    createdById: input.createdById,
    createdAt: now,
    updatedAt: now,
    run: idleJobState(),
  });
  await insertKeepingValues(db, Translation, translation);
  return requestJob(db, translationRunJob, translation, now);
}

/** The translation, locked for the rest of the transaction (null when there is none). */
export function lockTranslation(db: Db, id: string): Promise<Translation | null> {
  return lockJobRow(db, translationRunJob, id);
}

export async function setInstructions(
  db: Db,
  translation: Translation,
  instructions: string,
  now = new Date(),
): Promise<void> {
  await db.update(Translation, { id: translation.id }, { instructions, updatedAt: now });
  Object.assign(translation, { instructions, updatedAt: now });
}

/** Asks for a run: at once when none is under way, else exactly one more after the current one. */
export function requestRun(db: WorkTx, translation: Translation): Promise<JobTicket<Translation>> {
  return requestJob(db, translationRunJob, translation);
}

/**
 * Deletes the locked translation and its page hashes, withdrawing a run under way (its steps then find
 * no row and write nothing; its cancel follows the commit). The result space stays, as an ordinary
 * space. Returns the run whose intermediate blobs remain, to remove.
 */
export async function deleteTranslation(
  db: WorkTx,
  translation: Translation,
): Promise<{ stagedGeneration: number | null }> {
  await withdrawJob(db, translationRunJob, translation);
  await db.delete(TranslationPage, { translationId: translation.id });
  await db.delete(Translation, { id: translation.id });
  return { stagedGeneration: translation.stagedGeneration };
}
