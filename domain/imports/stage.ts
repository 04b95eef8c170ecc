/**
 * The staging step of the content-import job: one batch of the source's documents into the blob
 * store (staging.ts), then the progress on the row. A no-op once the run is superseded or cancelled:
 * the batch first checks the run's generation, and its progress report checks it again.
 */
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import { inTransaction } from '../db';
import type { GuardedFetch } from '../net/guarded-fetch';
import type { JobRef } from '../processes/job-kind';
import { lockCurrentJob, reportJobProgress } from '../processes/job-kind';
import type { BlobStore } from '../storage/blob-store';
import { initialState, StagingBatch } from './batch';
import { contentImportJob } from './import-job';
import { SourceContext, unreadable } from './sources/context';
import { stageDocx } from './sources/docx';
import { stageMarkdown } from './sources/markdown';
import { stageWebPages } from './sources/website';
import { stageZip } from './sources/zip';
import { ImportState, readJson, stateKey } from './staging';

export interface ImportDeps {
  ds: DataSource;
  blobs: BlobStore;
  fetch: GuardedFetch;
  logger: Logger;
  config: Config;
}

/** What a batch tells the workflow: how far the staging got (for its memo and the next batch). */
export interface StageProgress {
  /** batches done, including this one */
  batches: number;
  finished: boolean;
  done: number;
  total: number;
}

export interface ActivityHooks {
  heartbeat(): void;
  signal?: AbortSignal;
}

const STAGE_SOURCE: Record<string, (ctx: SourceContext) => Promise<void>> = {
  website: (ctx) => stageWebPages(ctx, true),
  html: (ctx) => stageWebPages(ctx, false),
  markdown: stageMarkdown,
  zip: stageZip,
  docx: stageDocx,
};

function progressOf(state: ImportState, maxPages: number): StageProgress {
  const queued = state.finished ? 0 : (state.crawl?.queue.length ?? 1);
  return {
    batches: state.batch,
    finished: state.finished,
    done: state.processed,
    total: Math.min(maxPages, state.processed + queued),
  };
}

/** Stages batch `batch` (0 first) from the state the previous one saved. */
export async function stageImportBatch(
  deps: ImportDeps,
  ref: JobRef,
  batch: number,
  hooks: ActivityHooks,
): Promise<StageProgress> {
  const run = await inTransaction(deps.ds, (db) => lockCurrentJob(db, contentImportJob, ref));
  const limits = deps.config.imports;
  const state = batch === 0 ? initialState() : await readJson<ImportState>(deps.blobs, stateKey(run.id, batch));
  const staging = new StagingBatch(state, run.id, deps.blobs, limits);
  await STAGE_SOURCE[run.source]({
    run,
    batch: staging,
    fetch: deps.fetch,
    signal: hooks.signal,
    heartbeat: hooks.heartbeat,
  });
  if (state.finished && !state.pages.length) throw unreadable(`${run.url}: nothing to import was found`);
  await staging.save();
  const progress = progressOf(state, limits.maxPages);
  await inTransaction(deps.ds, (db) => reportJobProgress(db, contentImportJob, ref, progress.done, progress.total));
  return progress;
}
