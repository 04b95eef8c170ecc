/** Every activity of the worker, merged from the per-domain factories over one set of dependencies. */

import type { JobWorkflowName } from '../domain/jobs/contracts';
import { withWorkContext } from '../platform/db/after-commit';
import type { ActivityDeps } from './deps';
import { createImportActivities } from './imports';
import { createIntegrationActivities } from './integrations';
import { createJobActivities } from './jobs';
import { createOpenAPISpecActivities } from './openapi-specs';
import { createPdfActivities } from './pdf';
import { createSpaceActivities } from './spaces';
import { createTranslationActivities } from './translations';

/**
 * Each job kind's activities, by the workflow that runs it (the contracts' JOB_KIND_NAMES): a kind without its
 * factory is a compile error. The Schedules' passes are among the job machinery's and OpenAPI's.
 */
export const KIND_ACTIVITIES: Record<JobWorkflowName, (deps: ActivityDeps) => object> = {
  spacePurge: createSpaceActivities,
  openapiProcess: createOpenAPISpecActivities,
  pdfExport: createPdfActivities,
  contentImport: createImportActivities,
  translationRun: createTranslationActivities,
  integrationDispatch: createIntegrationActivities,
};

/**
 * Every activity runs in the worker's work context: the jobs and the events its transactions ask for start
 * once they commit (platform/db/after-commit.ts).
 */
export function createActivities(deps: ActivityDeps): object {
  const activities: Record<string, (...args: unknown[]) => Promise<unknown>> = Object.assign(
    createJobActivities(deps),
    ...Object.values(KIND_ACTIVITIES).map((create) => create(deps)),
  );
  return Object.fromEntries(
    Object.entries(activities).map(([name, activity]) => [
      name,
      (...args: unknown[]) => withWorkContext(deps, () => activity(...args)),
    ]),
  );
}
