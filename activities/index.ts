/** Every activity of the worker, merged from the per-domain factories over one set of dependencies. */

import type { JobWorkflowName } from '../domain/jobs/contracts';
import type { ActivityDeps } from './deps';
import { createImportActivities } from './imports';
import { createIntegrationActivities } from './integrations';
import { createJobActivities } from './jobs';
import { createMailActivities } from './mail';
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
  mailDelivery: createMailActivities,
};

/**
 * Every activity of the worker. Their transactions that start jobs or events are opened with `deps`
 * (platform/db/after-commit.ts), so those start once they commit.
 */
export function createActivities(deps: ActivityDeps): object {
  return Object.assign(createJobActivities(deps), ...Object.values(KIND_ACTIVITIES).map((create) => create(deps)));
}
