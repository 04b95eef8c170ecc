/** Content import activities: thin wrappers over domain/imports, built from the one set of dependencies. */
import { commitImport, discardImport } from '../domain/imports/commit';
import { StageProgress, stageImportBatch } from '../domain/imports/stage';
import type { ImportCommit, JobRef } from '../domain/jobs/contracts';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import { permanentFailures } from './job-activity';

export interface ImportActivities {
  /** Stages batch `batch` of the source (heartbeating; a cancel aborts its fetches). */
  stageImportBatch(ref: JobRef, batch: number): Promise<StageProgress>;
  /** Commits the staged pages as one revision, once (heartbeating per page; a cancel rolls it back). */
  commitImport(ref: JobRef, batches: number): Promise<ImportCommit>;
  /** Removes the staging of an ended run. */
  discardImportStaging(ref: JobRef, batches: number): Promise<void>;
}

export function createImportActivities(deps: ActivityDeps): ImportActivities {
  return permanentFailures<ImportActivities>({
    stageImportBatch: (ref, batch) => heartbeating((live) => stageImportBatch(deps, ref, batch, live)),
    commitImport: (ref, batches) => heartbeating((live) => commitImport(deps, ref, batches, deps.clock(), live)),
    // never cancelled (the workflow runs it whatever the end): the heartbeat only tells a dead worker
    discardImportStaging: (ref, batches) => heartbeating(() => discardImport(deps, ref, batches)),
  });
}
