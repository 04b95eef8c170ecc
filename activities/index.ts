/** Every activity of the worker, merged from the per-domain factories over one set of dependencies. */
import type { ActivityDeps } from './deps';
import { createImportActivities } from './imports';
import { createIntegrationActivities } from './integrations';
import { createJobActivities } from './jobs';
import { createOpenAPISpecActivities } from './openapi-specs';
import { createPdfActivities } from './pdf';
import { createSpaceActivities } from './spaces';
import { createTranslationActivities } from './translations';

export function createActivities(deps: ActivityDeps) {
  return {
    ...createJobActivities(deps),
    ...createSpaceActivities(deps),
    ...createOpenAPISpecActivities(deps),
    ...createPdfActivities(deps),
    ...createImportActivities(deps),
    ...createTranslationActivities(deps),
    ...createIntegrationActivities(deps),
  };
}
