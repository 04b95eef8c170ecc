/**
 * The openapi-process job kind: creating or replacing a spec, and the refresh Schedule, ask for it;
 * the `openapiProcess` workflow runs it under `openapi-process/<specId>/<generation>`.
 */
import { OpenAPISpec } from '../../entities/OpenAPISpec';
import { JOB_KIND_NAMES } from '../jobs/contracts';
import { defineJobKind, jobStatus } from '../jobs/job-kind';

/** GitBook's OpenAPISpec processingState. */
export const OPENAPI_PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;

export const openapiProcessJob = defineJobKind({
  name: JOB_KIND_NAMES.openapiProcess,
  workflow: 'openapiProcess',
  entity: OpenAPISpec,
  state: 'process',
  input: (spec: OpenAPISpec) => ({ specId: spec.id, organizationId: spec.organizationId }),
  spaceId: () => null,
  // the row is the spec itself
  askedAbout: [],
  // A new source makes the running one pointless: the old run stops without writing.
  policy: 'supersede',
  // a failed run is `complete` too: lastProcessErrorCode says why
  progressUnit: null,
  publicStatus: (state): (typeof OPENAPI_PROCESSING_STATES)[number] => {
    const status = jobStatus(state);
    return status === 'pending' ? 'pending' : status === 'running' ? 'progress' : 'complete';
  },
  onLostRun: 'stay-failed',
  // a source answering 5xx or 429, or unreachable, this long is recorded as FETCH_ERROR (FETCH_TIMEOUT)
  retryBudgetMs: 15 * 60 * 1000,
  // The job removes its own: saving a version drops those beyond OPENAPI_VERSIONS_KEPT with their blobs,
  // and deleting a spec removes its rows and blobs.
  retention: null,
});
