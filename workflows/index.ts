/** Workflow bundle entry: every workflow the worker runs. */
export { spacePurge } from './space-purge';
