/**
 * Deterministic workflow and schedule ids, and the names both sides of a job agree on. Plain values
 * with no imports, so the API, the activities and the workflow bundle can all use them.
 */

/** The job kinds' names (the first segment of their workflow ids, `cli jobs list --kind`). */
export const JOB_KINDS = {
  spacePurge: 'space-purge',
  openapiProcess: 'openapi-process',
  pdfExport: 'pdf-export',
  contentImport: 'content-import',
  translationRun: 'translation-run',
  integrationDispatch: 'integration-dispatch',
} as const;

/** Kinds whose row is worked on once (an event is delivered once): their workflow id has no generation. */
const SINGLE_RUN_KINDS: readonly string[] = [JOB_KINDS.integrationDispatch];

export const isSingleRunKind = (job: string): boolean => SINGLE_RUN_KINDS.includes(job);

/**
 * `<job>/<resourceId>/<generation>`: a retried request finds the run; a new generation is a new run.
 * A single-run kind's id is `<job>/<resourceId>` (`integration-dispatch/<eventId>`, issue 11).
 */
export const jobWorkflowId = (job: string, resourceId: string, generation: number): string =>
  isSingleRunKind(job) ? `${job}/${resourceId}` : `${job}/${resourceId}/${generation}`;

export const spacePurgeWorkflowId = (spaceId: string, generation: number): string =>
  jobWorkflowId(JOB_KINDS.spacePurge, spaceId, generation);

/** Schedules belong to one deployment (its task queue), so two deployments sharing a namespace do not clash. */
export const scheduleId = (taskQueue: string, name: string): string => `${taskQueue}/${name}`;

/** Custom search attributes registered on the Temporal server (scripts/lib.sh). */
export const SEARCH_ATTRIBUTES = { organization: 'OrganizationId', space: 'SpaceId', resource: 'ResourceId' } as const;

/**
 * Failure types a job's activities raise as non-retryable ApplicationFailures. Besides a kind's own
 * codes (FETCH_TIMEOUT ...): SUPERSEDED, the row's generation moved on, so the run stops without
 * writing; JOB_FAILED, recorded for a failure that carried no code (retries exhausted, a bug).
 * RUN_LOST is written by the repair pass, never raised: the run closed without recording its end.
 */
export const JOB_FAILURES = {
  superseded: 'SUPERSEDED',
  failed: 'JOB_FAILED',
  cancelled: 'CANCELLED',
  lost: 'RUN_LOST',
} as const;
