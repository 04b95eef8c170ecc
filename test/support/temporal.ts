/** Runs a real worker on a private task queue for one test file, with quiet SDK logs. */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { DataSource } from 'typeorm';
import type { Config } from '../../domain/config';
import { createWorker } from '../../worker/worker';
import { unique } from '../factories';

let runtimeInstalled = false;

export interface TestWorker {
  taskQueue: string;
  stop(): Promise<void>;
}

export function privateTaskQueue(config: Config): Config {
  return { ...config, temporal: { ...config.temporal, taskQueue: unique('test-queue-') } };
}

export async function startWorker(ds: DataSource, config: Config): Promise<TestWorker> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  const { worker, connection } = await createWorker({ ds, config });
  const running = worker.run();
  return {
    taskQueue: config.temporal.taskQueue,
    stop: async () => {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}


