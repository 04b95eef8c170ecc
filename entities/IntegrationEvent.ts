import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import { JobState } from './JobState';

export type IntegrationEventStatus = 'pending' | 'success' | 'failed';
export interface IntegrationEventLog {
  message: string;
  timestamp: string;
  level: 'debug' | 'info' | 'warn' | 'error';
}

/**
 * One event sent to an integration (a job row of its own, docs/jobs.md). It is written in the
 * transaction of the change that causes it and delivered by the `integration-dispatch` workflow;
 * its trace records every attempt.
 */
@Entity('integration_events')
@Index(['integrationId', 'createdAt', 'id'])
export class IntegrationEvent {
  @IdColumn() id: string;
  @RefColumn() integrationId: string;
  /** Null only for events that are not about an installation. */
  @Index() @RefColumn({ nullable: true }) installationId: string | null;
  /** The organization the event comes from (the installation's). */
  @RefColumn() organizationId: string;
  @RefColumn({ nullable: true }) spaceId: string | null;
  @RefColumn({ nullable: true }) siteId: string | null;
  @Column({ type: 'varchar', length: 64 }) type: string;
  /** The Event as delivered (eventId, type, and the fields of its type). */
  @Column({ type: 'json' }) payload: Record<string, unknown>;
  @Column({ type: 'varchar', length: 16 }) status: IntegrationEventStatus;
  /** Where it is delivered: the development tunnel when the event was written; null when none. */
  @Column({ type: 'varchar', length: 256, nullable: true }) endpointUrl: string | null;
  @Column({ type: 'json' }) trace: IntegrationEventLog[];
  /**
   * The key of the delivery's signature: the installation's signing secret when the event was
   * written (an installation_deleted event is delivered after its installation is gone).
   */
  @Column({ type: 'varchar', length: 64, charset: 'ascii', collation: 'ascii_bin' }) signingSecret: string;
  @TimeColumn() createdAt: Date;
  /** The integration-dispatch job. */
  @Column(() => JobState, { prefix: 'dispatch' }) dispatch: JobState;
}
