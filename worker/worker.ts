/** Builds the Temporal worker for the service's task queue (used by the worker entry point and tests). */
import { NativeConnection, Worker } from '@temporalio/worker';
import type { DataSource } from 'typeorm';
import { createActivities } from '../activities';
import { ActivityDeps, createActivityDeps } from '../activities/deps';
import type { Config } from '../domain/config';
import { installEventDispatch } from '../domain/integrations/after-commit';

/**
 * The longest a heartbeat waits before it is sent (the SDK sends at most one per 80% of the heartbeat
 * timeout, else): Temporal answers a cancel only to a heartbeat, so a cancelled activity learns of it
 * within about this long.
 */
const HEARTBEAT_THROTTLE = '2 seconds';

export interface BuiltWorker {
  worker: Worker;
  deps: ActivityDeps;
  /** Closes the worker's connections (after `worker.run()` resolved). */
  close(): Promise<void>;
}

export async function createWorker(
  base: { ds: DataSource; config: Config; taskQueue?: string },
  overrides: Partial<ActivityDeps> = {},
): Promise<BuiltWorker> {
  const { config } = base;
  const deps = createActivityDeps({ ds: base.ds, config }, overrides);
  // integration events written by an activity's transaction (an import's commit) are dispatched once it commits
  installEventDispatch(base.ds, deps);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: base.taskQueue ?? config.temporal.taskQueue,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities(deps),
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
  });
  return {
    worker,
    deps,
    close: async () => {
      await deps.temporal.close();
      await deps.fetch.close();
      await connection.close();
    },
  };
}
