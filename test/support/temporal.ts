/** Runs a real worker on a private task queue for one test file, with quiet SDK logs. */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { DataSource } from 'typeorm';
import type { ActivityDeps } from '../../activities/deps';
import type { Config } from '../../platform/config';
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

/** Job retries short enough for tests: a failing step gives up within a second, a silent one is retried after two. */
export function shortJobRetries(config: Config): Config {
  return {
    ...config,
    jobs: {
      ...config.jobs,
      retry: {
        initialIntervalMs: 50,
        maximumIntervalMs: 200,
        maximumAttempts: 2,
        heartbeatTimeoutMs: 2000,
        bookkeepingBudgetMs: 30_000,
      },
    },
  };
}

export async function startWorker(
  ds: DataSource,
  config: Config,
  overrides: Partial<ActivityDeps> = {},
): Promise<TestWorker> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  const { worker, close } = await createWorker({ ds, config }, overrides);
  const running = worker.run();
  return {
    taskQueue: config.temporal.taskQueue,
    stop: async () => {
      worker.shutdown();
      await running;
      await close();
    },
  };
}
