/**
 * The workflow code as one webpack bundle, built once per process. Its build report (a screenful of
 * module lists at every start) stays out of the logs; webpack's warnings and errors go to the runtime's
 * logger like every other record (worker/runtime.ts).
 */
import { bundleWorkflowCode, type Logger, Runtime, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    logger: warningsOnly(Runtime.instance().logger),
  }).catch((err) => {
    bundle = undefined; // the next worker tries again
    throw err;
  });
  return bundle;
}

function warningsOnly(downstream: Logger): Logger {
  const ignore = () => {};
  return {
    log: (level, message, meta) => {
      if (level === 'WARN' || level === 'ERROR') downstream.log(level, message, meta);
    },
    trace: ignore,
    debug: ignore,
    info: ignore,
    warn: (message, meta) => downstream.warn(message, meta),
    error: (message, meta) => downstream.error(message, meta),
  };
}
