/** Builds the Temporal worker for the service's task queue (used by the worker entry point and tests). */
import { NativeConnection, Worker } from '@temporalio/worker';
import type { DataSource } from 'typeorm';
import { createActivities } from '../activities';
import type { Config } from '../domain/config';

export async function createWorker(deps: { ds: DataSource; config: Config; taskQueue?: string }): Promise<{ worker: Worker; connection: NativeConnection }> {
  const { config } = deps;
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: deps.taskQueue ?? config.temporal.taskQueue,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities(deps),
  });
  return { worker, connection };
}
