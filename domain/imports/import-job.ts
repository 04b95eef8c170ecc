/**
 * The content-import job kind: `POST {content}/import` creates an import run and asks for it; the
 * `contentImport` workflow runs it under `content-import/<importRunId>/<generation>`.
 */
import { ImportRun } from '../../entities/ImportRun';
import { JOB_KINDS } from '../processes/contracts';
import { defineJobKind } from '../processes/job-kind';
import { expireImportRuns } from './retention';

export const contentImportJob = defineJobKind({
  name: JOB_KINDS.contentImport,
  workflow: 'contentImport',
  entity: ImportRun,
  state: 'process',
  input: (run: ImportRun) => ({ importRunId: run.id, organizationId: run.organizationId }),
  spaceId: (run: ImportRun) => run.spaceId,
  // A cancel, or a newer import into the same content, makes the run stale: it stops without committing.
  policy: 'supersede',
  onLostRun: 'stay-failed',
  // room for a batch (15 minutes) retried after a lost worker
  retryBudgetMs: 30 * 60 * 1000,
  retention: {
    describe: 'import runs finished more than IMPORT_RETENTION_SECONDS ago; a run removes its own staging when it ends',
    expire: expireImportRuns,
  },
});
