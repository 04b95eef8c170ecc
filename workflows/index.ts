/** Workflow bundle entry: every workflow the worker runs, by the name a start or Schedule uses. */

export { contentImport } from './content-import';
export { expireJobs } from './expire-jobs';
export { integrationDispatch } from './integration-dispatch';
export { mailDelivery } from './mail-delivery';
export { openapiProcess } from './openapi-process';
export { refreshOpenAPISpecs } from './openapi-refresh';
export { pdfExport } from './pdf-export';
export { reconcileJobs } from './reconcile-jobs';
export { spacePurge } from './space-purge';
export { translationRun } from './translation-run';
