/** What a workflow's recorder gets, and what it returns: the case names and the runs to export. */
import type { DataSource } from 'typeorm';
import type { Organization } from '../../../entities/Organization';
import type { Config } from '../../../platform/config';
import { TemporalGateway } from '../../../platform/temporal/gateway';
import type { Actor } from '../../factories';

export interface RecorderContext {
  ds: DataSource;
  config: Config;
  temporal: TemporalGateway;
  org: Organization;
  admin: Actor;
}

/**
 * Drives the workflow through each of its paths and returns, per case, the id of its closed workflow, and the run
 * to record when it is not the latest (the run that continued as new).
 */
export type Recorder = (ctx: RecorderContext) => Promise<Array<{ name: string; workflowId: string; runId?: string }>>;

/** A gateway whose runs continue as new after every step of their loop (JOB_HISTORY_MAX_EVENTS=1): the `continued` cases. */
export const continuingGateway = (config: Config): TemporalGateway =>
  new TemporalGateway({ ...config, jobs: { ...config.jobs, historyMaxEvents: 1 } });

/**
 * The cases of a job that continued as new: `continued`, its first run, which handed over (the row records it), and
 * `continuation`, its last run, which began from the carried state and ended.
 */
export async function continuedCases(
  temporal: TemporalGateway,
  workflowId: string,
  firstRunId: string | null,
): Promise<Array<{ name: string; workflowId: string; runId: string }>> {
  const handle = (await temporal.getClient()).workflow.getHandle(workflowId);
  await handle.result().catch(() => undefined);
  const last = (await handle.describe()).runId;
  if (!firstRunId || last === firstRunId) throw new Error(`${workflowId} did not continue as new`);
  return [
    { name: 'continued', workflowId, runId: firstRunId },
    { name: 'continuation', workflowId, runId: last },
  ];
}
