/**
 * The job contracts: what the API, the activities and the workflow bundle agree on, on the bottom floor
 * beside entities/. Workflow names, workflow and schedule ids, search attribute names, `JobRef`, failure
 * codes, and each workflow's input and output. It imports nothing but the vocabulary leaf
 * (entities/vocabulary.ts), so workflow code may import it by value and `domain/` starts jobs through it
 * without importing `workflows/` (the layering check enforces both).
 */
import type { JobErrorMessage } from '../../entities/vocabulary';

/**
 * The job kinds' names (the first segment of their workflow ids, `cli jobs list --kind`), by the name of the
 * workflow that runs each.
 */
export const JOB_KIND_NAMES = {
  spacePurge: 'space-purge',
  openapiProcess: 'openapi-process',
  pdfExport: 'pdf-export',
  contentImport: 'content-import',
  translationRun: 'translation-run',
  integrationDispatch: 'integration-dispatch',
  mailDelivery: 'mail-delivery',
} as const;

/** The workflows that run a job kind. */
export type JobWorkflowName = keyof typeof JOB_KIND_NAMES;

/**
 * What a request during a run does: `supersede` bumps the generation, so the old run stops without writing;
 * `coalesce` lets the run finish and then runs exactly once more; `single-run`: the row asks for one run
 * (an event is delivered once), its workflow id has no generation, and a request while it runs finds it.
 */
export type JobPolicy = 'supersede' | 'coalesce' | 'single-run';

/** What a job's workflow id is made of. */
export interface JobIdentity {
  name: string;
  policy: JobPolicy;
}

/**
 * `<job>/<resourceId>/<generation>`: a retried request finds the run; a new generation is a new run.
 * A single-run kind's id is `<job>/<resourceId>` (`integration-dispatch/<eventId>`).
 */
export const jobWorkflowId = (kind: JobIdentity, resourceId: string, generation: number): string =>
  kind.policy === 'single-run' ? `${kind.name}/${resourceId}` : `${kind.name}/${resourceId}/${generation}`;

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

export type { JobErrorMessage };

/** A failed run's code and messages, as the row records them. */
export interface JobFailure {
  code: string;
  messages: JobErrorMessage[];
}

/** Which run of which job a step belongs to; every step checks it against the row. */
export interface JobRef {
  kind: string;
  resourceId: string;
  generation: number;
}

/** Retry policy of a run's activities, from configuration (tests run it short) and the kind's budget; always bounded. */
export interface JobRetry {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  /** 0: no bound on attempts, only the budget's */
  maximumAttempts: number;
  /**
   * How long a work step retries a failure that may pass (the kind's retryBudgetMs). Absent in the inputs of
   * runs started before it existed: they keep their bound in attempts.
   */
  budgetMs?: number;
  /** For activities that heartbeat: an attempt silent this long is retried (its worker died). */
  heartbeatTimeoutMs: number;
  /**
   * How long begin, finish and fail keep retrying (a database outage), unbounded in attempts. Absent in the
   * inputs of runs started before it existed (workflows/job.ts gives them the default).
   */
  bookkeepingBudgetMs?: number;
}

/** What every job workflow receives under `run`, beside its kind's own input. */
export interface JobRun extends JobRef {
  retry: JobRetry;
  /**
   * The queue of its CPU-heavy steps (PDF rendering, import staging), from its starter's configuration. Absent
   * in the inputs of runs started before it existed: they run every step on their own queue.
   */
  heavyTaskQueue?: string;
  /**
   * JOB_HISTORY_MAX_EVENTS: a workflow whose history grows with the data continues as new once its history has
   * this many events (workflows/job.ts). Absent in the inputs of runs started before it existed.
   */
  historyMaxEvents?: number;
}

/** What a job workflow returns: its steps' result, or that a newer generation superseded it. */
export type JobOutcome<T> = { state: 'done'; result: T } | { state: 'superseded' };

export interface SpacePurgeInput {
  spaceId: string;
  organizationId: string;
  /** Absent in runs started by release v1. */
  run?: JobRun;
  /** Set by the run this one continues (continue-as-new): how many batches the earlier runs purged. */
  continued?: { batches: number };
}

/**
 * A purge's result: JobOutcome like every job; a run started before patch `purge-runs-job` (releases v1 to v3)
 * returned only how it ended.
 */
export type SpacePurgeResult = JobOutcome<'purged'> | 'purged' | 'restored' | 'gone' | 'superseded';

export interface OpenAPIProcessInput {
  specId: string;
  organizationId: string;
  run: JobRun;
}

export interface PdfExportInput {
  exportId: string;
  organizationId: string;
  run: JobRun;
}

/** A rendered PDF, stored under `fileKey`. */
export interface RenderedFile {
  fileKey: string;
  pages: number;
  bytes: number;
}

export interface ContentImportInput {
  importRunId: string;
  organizationId: string;
  run: JobRun;
  /** Set by the run this one continues (continue-as-new): the batches staged so far. */
  continued?: { batches: number };
}

/** What an import made (one revision of the head): GitBook's ImportContentResult. */
export interface ImportCommit {
  revisionId: string;
  importedResources: number;
  totalResources: number;
}

export interface TranslationRunInput {
  translationId: string;
  organizationId: string;
  run: JobRun;
  /** Set by the run this one continues (continue-as-new): the plan's steps, and the next one to translate. */
  continued?: { steps: number; step: number };
}

export interface IntegrationDispatchInput {
  eventId: string;
  organizationId: string;
  run: JobRun;
}

export interface MailDeliveryInput {
  mailId: string;
  organizationId: string;
  run: JobRun;
}

export interface ReconcileJobsInput {
  /** Narrows the pass to one organization (tests, a targeted repair). */
  organizationId?: string;
  /** How old a request must be before its start counts as lost (default: the reconcile interval). */
  graceSeconds?: number;
}

export interface ReconcileJobsResult {
  /** Runs whose lost start was made. */
  started: number;
  /** Starts that failed again (the next pass retries). */
  failed: number;
  /** Rows whose lost run was recorded as RUN_LOST. */
  repaired: number;
  /** Of those, the new runs started (a kind that asks again, or a coalesced request). */
  restarted: number;
}

export interface RefreshOpenAPISpecsInput {
  /** Narrows the pass to one organization (tests). */
  organizationId?: string;
}

/** Every workflow of the bundle (workflows/index.ts), by the name a start or a Schedule uses: its arguments and result. */
export interface WorkflowContracts {
  spacePurge: { args: [SpacePurgeInput]; result: SpacePurgeResult };
  openapiProcess: { args: [OpenAPIProcessInput]; result: JobOutcome<string | null> };
  pdfExport: { args: [PdfExportInput]; result: JobOutcome<RenderedFile> };
  contentImport: { args: [ContentImportInput]; result: JobOutcome<ImportCommit> };
  translationRun: { args: [TranslationRunInput]; result: JobOutcome<{ space: string; revision: string }> };
  integrationDispatch: { args: [IntegrationDispatchInput]; result: JobOutcome<{ attempts: number }> };
  mailDelivery: { args: [MailDeliveryInput]; result: JobOutcome<{ reply: string }> };
  reconcileJobs: { args: [ReconcileJobsInput?]; result: ReconcileJobsResult };
  expireJobs: { args: []; result: Record<string, number> };
  refreshOpenAPISpecs: { args: [RefreshOpenAPISpecsInput?]; result: number };
}

export type WorkflowName = keyof WorkflowContracts;

/** A job kind's own part of its workflow's input (the machinery adds `run`). */
export type KindInput<N extends JobWorkflowName> = Omit<WorkflowContracts[N]['args'][0], 'run'>;
