/**
 * The content-import job kind: `POST {content}/import` creates an import run and asks for it; the
 * `contentImport` workflow runs it under `content-import/<importRunId>/<generation>`.
 */
import { ImportRun } from '../../entities/ImportRun';
import { JOB_FAILURES, JOB_KIND_NAMES } from '../jobs/contracts';
import { defineJobKind, jobStatus } from '../jobs/job-kind';

/** GitBook's ContentImportRun statuses. */
export const IMPORT_RUN_STATUSES = ['pending', 'in-progress', 'completed', 'failed', 'cancelled'] as const;

import { expireImportRuns } from './retention';

export const contentImportJob = defineJobKind({
  name: JOB_KIND_NAMES.contentImport,
  workflow: 'contentImport',
  entity: ImportRun,
  state: 'process',
  input: (run: ImportRun) => ({ importRunId: run.id, organizationId: run.organizationId }),
  spaceId: (run: ImportRun) => run.spaceId,
  // the space (or its change request's space) the user imported into
  askedAbout: ['spaceId'],
  // A cancel, or a newer import into the same content, makes the run stale: it stops without committing.
  policy: 'supersede',
  // staged of those found so far (a crawl finds more as it goes)
  progressUnit: 'documents',
  publicStatus: (state): (typeof IMPORT_RUN_STATUSES)[number] => {
    if (state.errorCode === JOB_FAILURES.cancelled) return 'cancelled';
    const status = jobStatus(state);
    return status === 'succeeded'
      ? 'completed'
      : status === 'running'
        ? 'in-progress'
        : status === 'failed'
          ? 'failed'
          : 'pending';
  },
  onLostRun: 'stay-failed',
  // room for a batch (15 minutes) retried after a lost worker
  retryBudgetMs: 30 * 60 * 1000,
  retention: {
    describe: 'import runs finished more than IMPORT_RETENTION_SECONDS ago; a run removes its own staging when it ends',
    expire: expireImportRuns,
  },
});
