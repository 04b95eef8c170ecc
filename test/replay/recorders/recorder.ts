/** What a workflow's recorder gets, and what it returns: the case names and the runs to export. */
import type { DataSource } from 'typeorm';
import type { Organization } from '../../../entities/Organization';
import type { Config } from '../../../platform/config';
import type { TemporalGateway } from '../../../platform/temporal/gateway';
import type { Actor } from '../../factories';

export interface RecorderContext {
  ds: DataSource;
  config: Config;
  temporal: TemporalGateway;
  org: Organization;
  admin: Actor;
}

/** Drives the workflow through each of its paths and returns, per case, the id of its closed run. */
export type Recorder = (ctx: RecorderContext) => Promise<Array<{ name: string; workflowId: string }>>;
