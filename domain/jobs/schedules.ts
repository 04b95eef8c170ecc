/**
 * The service's scheduled work as Temporal Schedules: one Schedule per task, so however
 * many worker replicas run, one place runs it. The worker creates or updates them at start-up
 * (idempotently); a kind that needs periodic work (a refresh) adds its entry to SCHEDULES.
 */
import {
  ScheduleAlreadyRunning,
  type ScheduleOptionsStartWorkflowAction,
  ScheduleOverlapPolicy,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { Config } from '../../platform/config';
import type { TemporalGateway } from '../../platform/temporal/gateway';
import { scheduleId, type WorkflowContracts, type WorkflowName } from './contracts';

export interface ScheduledWorkflow<N extends WorkflowName = WorkflowName> {
  /** Schedule name, unique in the deployment: the Schedule id is `<taskQueue>/<name>`. */
  name: string;
  workflow: N;
  everySeconds(config: Config): number;
  args: WorkflowContracts[N]['args'];
}

export function defineSchedule<N extends WorkflowName>(schedule: ScheduledWorkflow<N>): ScheduledWorkflow<N> {
  return schedule;
}

export const SCHEDULES: readonly ScheduledWorkflow[] = [
  defineSchedule({
    name: 'reconcile-jobs',
    workflow: 'reconcileJobs',
    everySeconds: (c) => c.jobs.reconcileIntervalSeconds,
    args: [{}],
  }),
  defineSchedule({
    name: 'expire-jobs',
    workflow: 'expireJobs',
    everySeconds: (c) => c.jobs.cleanupIntervalSeconds,
    args: [],
  }),
  defineSchedule({
    name: 'refresh-openapi-specs',
    workflow: 'refreshOpenAPISpecs',
    everySeconds: (c) => c.openapi.refreshIntervalSeconds,
    args: [{}],
  }),
];

/** Creates each Schedule, or brings an existing one to the current interval and action. Returns their ids. */
export async function ensureSchedules(
  temporal: TemporalGateway,
  config: Config,
  schedules: readonly ScheduledWorkflow[] = SCHEDULES,
): Promise<string[]> {
  const client = await temporal.getClient();
  const ids: string[] = [];
  for (const schedule of schedules) {
    const id = scheduleId(temporal.taskQueue, schedule.name);
    const spec = { intervals: [{ every: Math.max(1, schedule.everySeconds(config)) * 1000 }] };
    const action: ScheduleOptionsStartWorkflowAction<Workflow> = {
      type: 'startWorkflow',
      workflowType: schedule.workflow,
      workflowId: id,
      taskQueue: temporal.taskQueue,
      args: schedule.args,
    };
    // A pass still running when the next is due is not doubled.
    const policies = { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 60_000 };
    try {
      await client.schedule.create({ scheduleId: id, spec, action, policies });
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await client.schedule.getHandle(id).update((previous) => ({ ...previous, spec, action, policies }));
    }
    ids.push(id);
  }
  return ids;
}
