/**
 * Runs a scheduled workflow (reconcileJobs, expireJobs, refreshOpenAPISpecs) once, for record.ts: what its
 * Schedule starts, narrowed to the recorder's organization where the workflow takes one. Its one path is an
 * activity that does the pass; the pass's work (a start, a repair, a removal) is the activity's, not the history's.
 */

import { newId } from '../../../domain/ids';
import type { WorkflowContracts } from '../../../domain/jobs/contracts';
import type { Recorder } from './recorder';

type ScheduledName = 'reconcileJobs' | 'expireJobs' | 'refreshOpenAPISpecs';

export function recordScheduled<N extends ScheduledName>(
  workflow: N,
  args: (organizationId: string) => WorkflowContracts[N]['args'],
): Recorder {
  return async ({ config, temporal, org }) => {
    const client = await temporal.getClient();
    const workflowId = `recorded-${workflow}-${newId()}`;
    const handle = await client.workflow.start(workflow, {
      workflowId,
      taskQueue: config.temporal.taskQueue,
      args: args(org.id),
    });
    await handle.result();
    return [{ name: 'pass', workflowId }];
  };
}
