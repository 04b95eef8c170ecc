/**
 * Builds the Temporal worker: one SDK Worker per task queue it polls (worker/task-queues.ts), sharing
 * the activities' dependencies (used by the worker entry point, tests and benchmarks).
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import type { DataSource } from 'typeorm';
import { createActivities } from '../activities';
import { ActivityDeps, createActivityDeps } from '../activities/deps';
import type { Config } from '../platform/config';
import { temporalConnectionOptions } from '../platform/temporal/connection';
import { planQueues } from './task-queues';
import { workflowBundle } from './workflow-bundle';

/**
 * The longest a heartbeat waits before it is sent (the SDK sends at most one per 80% of the heartbeat
 * timeout, else): Temporal answers a cancel only to a heartbeat, so a cancelled activity learns of it
 * within about this long.
 */
const HEARTBEAT_THROTTLE = '2 seconds';

/** The SDK Workers of one process, run and stopped together. */
export class WorkerGroup {
  constructor(private readonly workers: Worker[]) {}

  /**
   * Polls every queue until shutdown (SIGTERM, SIGINT: the SDK's runtime stops every Worker), and resolves
   * once their running activities finished; one failing stops the others, then rejects.
   */
  async run(): Promise<void> {
    const runs = this.workers.map((w) => w.run());
    try {
      await Promise.all(runs);
    } catch (err) {
      this.shutdown();
      await Promise.allSettled(runs);
      throw err;
    }
  }

  shutdown(): void {
    for (const w of this.workers) if (w.getState() === 'RUNNING') w.shutdown();
  }

  /** Polling every queue: not before run(), nor once a shutdown began (the activities drain). */
  get polling(): boolean {
    return this.workers.every((w) => w.getState() === 'RUNNING');
  }
}

export interface BuiltWorker {
  worker: WorkerGroup;
  deps: ActivityDeps;
  /** Closes the worker's connections (after `worker.run()` resolved). */
  close(): Promise<void>;
}

export async function createWorker(
  base: { ds: DataSource; config: Config },
  overrides: Partial<ActivityDeps> = {},
): Promise<BuiltWorker> {
  const { config } = base;
  const queues = planQueues(config);
  const deps = createActivityDeps({ ds: base.ds, config }, overrides);
  const connection = await NativeConnection.connect(temporalConnectionOptions(config.temporal));
  const activities = createActivities(deps);
  const workers = await Promise.all(
    queues.map(async (queue) =>
      Worker.create({
        connection,
        namespace: config.temporal.namespace,
        taskQueue: queue.taskQueue,
        // the main queue's Worker runs the workflows; every step is registered on both, so a run started
        // before the heavy queue existed still finds its heavy steps on the main queue
        ...(queue.role === 'main' ? { workflowBundle: await workflowBundle() } : {}),
        activities,
        maxConcurrentActivityTaskExecutions: queue.maxConcurrentActivities,
        maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
        // on SIGTERM: polling stops, running steps may finish during the grace time, then are cancelled
        // (they stop at their next heartbeat and are retried elsewhere); past the force time run() rejects
        shutdownGraceTime: config.worker.shutdownGraceSeconds * 1000,
        shutdownForceTime: config.worker.shutdownForceSeconds * 1000,
      }),
    ),
  );
  return {
    worker: new WorkerGroup(workers),
    deps,
    close: async () => {
      await deps.temporal.close();
      await deps.fetch.close();
      await connection.close();
    },
  };
}
