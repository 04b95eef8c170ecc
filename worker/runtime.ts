/**
 * The Temporal SDK's runtime, set up once per process before any connection to Temporal. Its logs (the
 * SDK's own, the activities' context logger and, forwarded, its Rust core's) go to the worker's pino
 * logger: one JSON line per record, like every other line of the worker. Its metrics are exported in
 * Prometheus format on a loopback port that the worker's /metrics appends (worker/metrics.ts).
 */
import { type Logger, type LogLevel, type LogMetadata, makeTelemetryFilterString, Runtime } from '@temporalio/worker';
import type { Logger as Pino } from 'pino';

const PINO_LEVEL = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/**
 * The SDK's log records as pino lines. An activity's task token (in the metadata of the SDK's activity
 * records, and of its core's) is left out: it is a credential that completes or fails the activity. An
 * error is logged under `err`, which pino serializes (type, message, stack) into the same line.
 */
export function temporalLogger(pino: Pino): Logger {
  const log = (level: LogLevel, message: string, meta: LogMetadata = {}): void => {
    const { taskToken: _token, task_token: _coreToken, error, ...fields } = meta;
    pino[PINO_LEVEL[level]](error === undefined ? fields : { ...fields, err: error }, message);
  };
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}

/**
 * `service`: the label every sample of the SDK's metrics carries, as the worker's own do (the
 * registry's default label), so one scrape's samples all name their service.
 */
export function installTemporalRuntime(options: { logger: Pino; metricsPort: number; service: string }): void {
  Runtime.install({
    logger: temporalLogger(options.logger),
    telemetryOptions: {
      // the core's warnings and errors (a lost activity completion, a failed poll), forwarded to the logger above
      logging: { filter: makeTelemetryFilterString({ core: 'WARN', other: 'ERROR' }), forward: {} },
      metrics: {
        prometheus: {
          bindAddress: `127.0.0.1:${options.metricsPort}`,
          countersTotalSuffix: true,
          unitSuffix: true,
          useSecondsForDurations: true,
        },
        globalTags: { service: options.service },
      },
    },
  });
}
