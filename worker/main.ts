/** Worker entry point: runs workflows and activities, and the purge reconciler; stops gracefully on SIGTERM/SIGINT. */
import 'reflect-metadata';
import { loadConfig } from '../domain/config';
import { createLogger } from '../domain/logger';
import { reconcileSpacePurges } from '../domain/processes/space-purge';
import { TemporalGateway } from '../domain/processes/temporal';
import { createDataSource } from '../entities/data-source';
import { createWorker } from './worker';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'worker');
  const ds = await createDataSource(config).initialize();
  const temporal = new TemporalGateway(config);
  const { worker, connection } = await createWorker({ ds, config });

  const reconcile = async () => {
    try {
      const started = await reconcileSpacePurges(temporal, ds, config.reconcileIntervalSeconds);
      if (started) logger.warn({ started }, 'started missing space-purge workflows');
    } catch (err) {
      logger.error({ err }, 'space-purge reconciliation failed');
    }
  };
  const timer = setInterval(reconcile, config.reconcileIntervalSeconds * 1000);
  void reconcile();

  logger.info({ taskQueue: config.temporal.taskQueue }, 'worker running');
  await worker.run(); // resolves after SIGTERM/SIGINT once in-flight tasks finish
  clearInterval(timer);
  await temporal.close();
  await connection.close();
  await ds.destroy();
  logger.info('worker stopped');
}

main().catch((err) => {
  process.stderr.write(`worker failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
