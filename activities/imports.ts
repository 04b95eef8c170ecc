/** Content import activities: thin wrappers over domain/imports, built from the one set of dependencies. */
import { Context } from '@temporalio/activity';
import { commitImport, discardImport, ImportCommit } from '../domain/imports/commit';
import { StageProgress, stageImportBatch } from '../domain/imports/stage';
import type { JobRef } from '../domain/processes/job-kind';
import type { ActivityDeps } from './deps';
import { permanentFailures } from './job-activity';

export interface ImportActivities {
  /** Stages batch `batch` of the source (heartbeating; a cancel aborts its fetches). */
  stageImportBatch(ref: JobRef, batch: number): Promise<StageProgress>;
  /** Commits the staged pages as one revision, once. */
  commitImport(ref: JobRef, batches: number): Promise<ImportCommit>;
  /** Removes the staging of an ended run. */
  discardImportStaging(ref: JobRef, batches: number): Promise<void>;
}

export function createImportActivities(deps: ActivityDeps): ImportActivities {
  return permanentFailures<ImportActivities>({
    stageImportBatch: (ref, batch) => {
      const context = Context.current();
      return stageImportBatch(deps, ref, batch, {
        heartbeat: () => context.heartbeat(),
        signal: context.cancellationSignal,
      });
    },
    commitImport: (ref, batches) => commitImport(deps, ref, batches, deps.clock()),
    discardImportStaging: (ref, batches) => discardImport(deps, ref, batches),
  });
}
