/** Workflow bundle entry: every workflow the worker runs, by the name a start or Schedule uses. */
export { spacePurge } from './space-purge';
export { reconcileJobs } from './reconcile-jobs';
export { expireJobs } from './expire-jobs';
export { openapiProcess } from './openapi-process';
export { refreshOpenAPISpecs } from './openapi-refresh';
export { pdfExport } from './pdf-export';
export { contentImport } from './content-import';
export { translationRun } from './translation-run';
export { integrationDispatch } from './integration-dispatch';
