/**
 * The staging step of the content-import job: one batch of the source's documents into the blob
 * store (staging.ts), then the progress on the row. A no-op once the run is superseded or cancelled:
 * the batch first checks the run's generation, and its progress report checks it again.
 */

import { ImportRun } from '../../entities/ImportRun';
import type { Config } from '../../platform/config';
import { inTransaction, type WorkSource } from '../../platform/db/transactions';
import type { GuardedFetch } from '../../platform/net/guarded-fetch';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { JobRef } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { lockCurrentJob, reportJobProgress } from '../jobs/job-lifecycle';
import { Liveness, UNWATCHED } from '../jobs/liveness';
import { initialState, StagingBatch } from './batch';
import { contentImportJob } from './import-job';
import { SourceContext, unreadable } from './sources/context';
import { stageDocx } from './sources/docx';
import { stageMarkdown } from './sources/markdown';
import { stageWebPages } from './sources/website';
import { stageZip } from './sources/zip';
import { ImportState, readJson, stateKey } from './staging';

/** The import's steps commit to a space's head, which sends events: the data source with what starts them. */
export interface ImportDeps extends WorkSource {
  config: Config;
  blobs: BlobStore;
  fetch: GuardedFetch;
}

/** What a batch tells the workflow: how far the staging got (for its memo and the next batch). */
export interface StageProgress {
  /** batches done, including this one */
  batches: number;
  finished: boolean;
  done: number;
  total: number;
}

const STAGE_SOURCE: Record<string, (ctx: SourceContext) => Promise<void>> = {
  website: (ctx) => stageWebPages(ctx, true),
  html: (ctx) => stageWebPages(ctx, false),
  markdown: stageMarkdown,
  zip: stageZip,
  docx: stageDocx,
};

/** Documents known and not staged yet: a crawl's frontier, an archive's rest, else the one document. */
function queuedOf(state: ImportState): number {
  if (state.finished) return 0;
  if (state.crawl) return state.crawl.queue.length;
  return state.archiveDocuments ? state.archiveDocuments - state.processed : 1;
}

function progressOf(state: ImportState, maxPages: number): StageProgress {
  const queued = queuedOf(state);
  return {
    batches: state.batch,
    finished: state.finished,
    done: state.processed,
    total: Math.min(maxPages, state.processed + queued),
  };
}

/**
 * Whether a retry may still stage what a failed batch stored: not once the run moved on (cancelled,
 * superseded), nor after a permanent failure of an attempt that was not itself stopped (it timed out,
 * and its retry may already be storing the same blobs).
 */
async function retryMayFollow(deps: ImportDeps, ref: JobRef, err: unknown, live: Liveness): Promise<boolean> {
  if (err instanceof JobError && !live.signal.aborted) return false;
  const row = await deps.ds.manager.findOneBy(ImportRun, { id: ref.resourceId });
  return row?.process.generation === ref.generation;
}

/** Stages batch `batch` (0 first) from the state the previous one saved. */
export async function stageImportBatch(
  deps: ImportDeps,
  ref: JobRef,
  batch: number,
  live: Liveness = UNWATCHED,
): Promise<StageProgress> {
  const run = await inTransaction(deps.ds, (db) => lockCurrentJob(db, contentImportJob, ref));
  const limits = deps.config.imports;
  const state = batch === 0 ? initialState() : await readJson<ImportState>(deps.blobs, stateKey(run.id, batch));
  const staging = new StagingBatch(state, run.id, deps.blobs, limits);
  try {
    await STAGE_SOURCE[run.source]({ run, batch: staging, fetch: deps.fetch, live });
    if (state.finished && !state.staged) throw unreadable(`${run.url}: nothing to import was found`);
    // a batch cancelled by now saves nothing
    live.heartbeat({ done: state.processed });
    await staging.save();
  } catch (err) {
    // the run's staging is removed from its saved states; what this batch stored is known only here
    if (!(await retryMayFollow(deps, ref, err, live).catch(() => true))) await staging.discardUnsaved(deps.logger);
    throw err;
  }
  const progress = progressOf(state, limits.maxPages);
  await inTransaction(deps.ds, (db) => reportJobProgress(db, contentImportJob, ref, progress.done, progress.total));
  return progress;
}
