/** API entry point: connects MySQL, serves HTTP, and shuts down gracefully on SIGTERM/SIGINT. */
import 'reflect-metadata';
import { loadConfig } from '../platform/config';
import { createDataSource } from '../platform/db/data-source';
import { createLogger } from '../platform/logger';
import { serveMetrics } from '../platform/metrics/server';
import { createBlobStore } from '../platform/storage';
import { TemporalGateway } from '../platform/temporal/gateway';
import { createApp } from './app';
import { answerClientErrorsAsJson } from './client-errors';
import { metricsOf } from './metrics';
import { readinessOf } from './readiness';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'api', { buffered: true });
  const ds = await createDataSource(config).initialize();
  const temporal = new TemporalGateway(config);
  const app = createApp({ ds, config, temporal, logger, blobs: createBlobStore(config) });
  const server = app.listen(config.port, config.host, () =>
    logger.info({ port: config.port, host: config.host }, 'api listening'),
  );
  answerClientErrorsAsJson(server);
  // off the public port (docs/decisions.md)
  const metrics = await serveMetrics(metricsOf(app).registry, config.metrics.host, config.metrics.apiPort);
  logger.info({ port: metrics.port, host: config.metrics.host }, 'metrics listening (GET /metrics)');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // /readyz answers 503 at once: the load balancer takes the replica out while it still serves, then the drain
    readinessOf(app).drain();
    logger.info(
      { signal, delaySeconds: config.apiShutdownDelaySeconds },
      'api shutting down: not ready, then draining',
    );
    setTimeout(() => {
      server.close(async () => {
        await metrics.close();
        await temporal.close();
        await ds.destroy();
        logger.info('api stopped');
        process.exit(0);
      });
      server.closeIdleConnections();
      setTimeout(() => process.exit(1), 15000).unref();
    }, config.apiShutdownDelaySeconds * 1000);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  // a JSON line too (its stack in `err`), like every other record of the API
  createLogger('fatal', 'api').fatal({ err }, 'api failed to start');
  process.exit(1);
});
