/**
 * Worker entry point: runs workflows and activities, and makes sure the service's Schedules
 * (job reconciler, cleanup, refreshes) exist; stops gracefully on SIGTERM/SIGINT. With
 * `--no-schedules` it only works its task queue (a test's or a benchmark's private one, which no
 * Schedule should outlive).
 */
import 'reflect-metadata';
import { JobMetrics } from '../activities/job-metrics';
import { ensureSchedules } from '../domain/jobs/schedules';
import { registerJobsGauge } from '../domain/metrics/jobs';
import { loadConfig } from '../platform/config';
import { createDataSource } from '../platform/db/data-source';
import { boundPool } from '../platform/deadline';
import { createLogger } from '../platform/logger';
import { createMetricsRegistry } from '../platform/metrics/registry';
import { serveMetrics } from '../platform/metrics/server';
import { temporalMetrics } from './metrics';
import { installTemporalRuntime } from './runtime';
import { planQueues } from './task-queues';
import { createWorker } from './worker';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'worker');
  // the SDK's records become JSON lines of this logger; its metrics carry service="worker" as the registry's do
  installTemporalRuntime({ logger, metricsPort: config.metrics.temporalPort, service: 'worker' });
  const ds = await createDataSource(config).initialize();
  // a hung database fails a step (retried) instead of holding it: the wait for a connection, each statement
  boundPool(ds, { acquireMs: config.mysql.acquireTimeoutMs, statementMs: config.mysql.statementTimeoutMs });
  const registry = createMetricsRegistry('worker', ds);
  registerJobsGauge(registry, ds);
  const { worker, deps, close } = await createWorker({ ds, config }, { metrics: new JobMetrics(registry) });
  // ready while every queue is polled: not before run(), nor once SIGTERM began the drain
  const metrics = await serveMetrics(
    registry,
    config.metrics.host,
    config.metrics.workerPort,
    [temporalMetrics(config.metrics.temporalPort)],
    { ready: () => worker.polling },
  );
  logger.info({ port: metrics.port, host: config.metrics.host }, 'metrics listening (GET /metrics, /healthz, /readyz)');
  const schedules = process.argv.includes('--no-schedules') ? [] : await ensureSchedules(deps.temporal, deps.config);
  logger.info({ taskQueues: planQueues(config), schedules }, 'worker running');
  // resolves after SIGTERM/SIGINT once running activities finished (or, past WORKER_SHUTDOWN_GRACE_SECONDS, stopped)
  await worker.run();
  await close();
  await metrics.close();
  await ds.destroy();
  logger.info('worker stopped');
}

main().catch((err) => {
  // a JSON line too (its stack in `err`), like every other record of the worker
  createLogger('fatal', 'worker').fatal({ err }, 'worker failed');
  process.exit(1);
});
