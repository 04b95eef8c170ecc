/**
 * Worker entry point: runs workflows and activities, and makes sure the service's Schedules
 * (job reconciler, cleanup, refreshes) exist; stops gracefully on SIGTERM/SIGINT. With
 * `--no-schedules` it only works its task queue (a test's or a benchmark's private one, which no
 * Schedule should outlive).
 */
import 'reflect-metadata';
import { JobMetrics } from '../activities/job-metrics';
import { loadConfig } from '../domain/config';
import { createLogger } from '../domain/logger';
import { createMetricsRegistry } from '../domain/metrics/registry';
import { serveMetrics } from '../domain/metrics/server';
import { ensureSchedules } from '../domain/processes/schedules';
import { createDataSource } from '../entities/data-source';
import { installTemporalMetrics, temporalMetrics } from './metrics';
import { planQueues } from './task-queues';
import { createWorker } from './worker';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'worker');
  installTemporalMetrics(config.metrics.temporalPort);
  const ds = await createDataSource(config).initialize();
  const registry = createMetricsRegistry('worker', ds);
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
  process.stderr.write(`worker failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
