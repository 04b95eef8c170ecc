/**
 * One recorder per workflow, by the folder name of its histories: each job kind's (its name, from the contracts'
 * JOB_KIND_NAMES: a kind without a recorder is a compile error) and each Schedule's (its name). The replay test
 * derives what must be recorded from this list, and record.ts records it.
 */
import type { JOB_KIND_NAMES, JobWorkflowName } from '../../../domain/jobs/contracts';
import { recordContentImport } from './content-import';
import { recordIntegrationDispatch } from './integration-dispatch';
import { recordMailDelivery } from './mail-delivery';
import { recordOpenAPIProcess } from './openapi-process';
import { recordPdfExport } from './pdf-export';
import type { Recorder } from './recorder';
import { recordScheduled } from './scheduled';
import { recordSpacePurge } from './space-purge';
import { recordTranslationRun } from './translation-run';

export interface RecorderEntry {
  /** Exported name of the workflow in workflows/index.ts. */
  workflow: string;
  recorder: Recorder;
  /** The paths each release records, `<release>-<case>.json`. */
  cases: string[];
}

export const JOB_RECORDERS: { [N in JobWorkflowName as (typeof JOB_KIND_NAMES)[N]]: RecorderEntry & { workflow: N } } =
  {
    'space-purge': {
      workflow: 'spacePurge',
      recorder: recordSpacePurge,
      cases: ['purged', 'cancelled', 'superseded', 'failed', 'continued', 'continuation'],
    },
    'translation-run': {
      workflow: 'translationRun',
      recorder: recordTranslationRun,
      cases: ['completed', 'rerun', 'failed', 'cancelled', 'continued', 'continuation'],
    },
    'pdf-export': { workflow: 'pdfExport', recorder: recordPdfExport, cases: ['rendered', 'failed', 'cancelled'] },
    'openapi-process': {
      workflow: 'openapiProcess',
      recorder: recordOpenAPIProcess,
      cases: ['complete', 'unchanged', 'fetch-timeout', 'fetch-error', 'parse-error', 'superseded', 'cancelled'],
    },
    'content-import': {
      workflow: 'contentImport',
      recorder: recordContentImport,
      cases: ['imported', 'fetch-error', 'parse-error', 'cancelled', 'superseded', 'continued', 'continuation'],
    },
    'integration-dispatch': {
      workflow: 'integrationDispatch',
      recorder: recordIntegrationDispatch,
      cases: ['delivered', 'rejected', 'exhausted', 'cancelled'],
    },
    'mail-delivery': {
      workflow: 'mailDelivery',
      recorder: recordMailDelivery,
      cases: ['sent', 'rejected', 'undelivered', 'cancelled'],
    },
  };

/** The Schedules' workflows (domain/jobs/schedules.ts), by Schedule name. */
export const SCHEDULE_RECORDERS: Record<string, RecorderEntry> = {
  'reconcile-jobs': {
    workflow: 'reconcileJobs',
    recorder: recordScheduled('reconcileJobs', (organizationId) => [{ organizationId, graceSeconds: 0 }]),
    cases: ['pass'],
  },
  'expire-jobs': { workflow: 'expireJobs', recorder: recordScheduled('expireJobs', () => []), cases: ['pass'] },
  'refresh-openapi-specs': {
    workflow: 'refreshOpenAPISpecs',
    recorder: recordScheduled('refreshOpenAPISpecs', (organizationId) => [{ organizationId }]),
    cases: ['pass'],
  },
};

export const RECORDERS: Record<string, RecorderEntry> = { ...JOB_RECORDERS, ...SCHEDULE_RECORDERS };
