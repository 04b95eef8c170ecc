/**
 * The translation-run job kind: creating a translation and POST run ask for it, and the
 * `translationRun` workflow runs it under `translation-run/<translationId>/<generation>` (the run's
 * number). A run asked for during a run coalesces: exactly one more run follows the current one.
 */
import { Translation } from '../../entities/Translation';
import { JOB_KIND_NAMES } from '../jobs/contracts';
import { defineJobKind, jobStatus } from '../jobs/job-kind';
import { expireStagedRuns } from './retention';

/** GitBook's Translation statuses. */
export const TRANSLATION_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;

export const translationRunJob = defineJobKind({
  name: JOB_KIND_NAMES.translationRun,
  workflow: 'translationRun',
  entity: Translation,
  state: 'run',
  input: (translation: Translation) => ({ translationId: translation.id, organizationId: translation.organizationId }),
  spaceId: (translation: Translation) => translation.sourceSpaceId,
  askedAbout: ['sourceSpaceId'],
  policy: 'coalesce',
  // a coalesced run keeps it `running` until the last one ends
  // the plan, each group of pages sent to the provider, and the apply
  progressUnit: 'steps',
  publicStatus: (state): (typeof TRANSLATION_STATUSES)[number] => {
    const status = jobStatus(state);
    return status === 'succeeded' ? 'completed' : status === 'idle' ? 'pending' : status;
  },
  onLostRun: 'stay-failed',
  // a provider outage of this long fails the run; the next run keeps the steps it finished
  retryBudgetMs: 3600 * 1000,
  retention: {
    describe:
      'translations stay until deleted; the intermediate blobs of a run (its plan and translated steps) go when it completes, or TRANSLATION_STAGING_RETENTION_SECONDS after it failed',
    expire: expireStagedRuns,
  },
});
