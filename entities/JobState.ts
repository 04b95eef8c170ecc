/**
 * The job columns every job resource embeds (`@Column(() => JobState, { prefix })`, docs/jobs.md). The
 * row, not Temporal, is where the API and the operator CLI read a job's state from.
 */
import { Column, Index } from 'typeorm';
import { TimeColumn } from './columns';
import type { JobErrorMessage } from './vocabulary';

export class JobState {
  /** Bumped in the transaction that asks for (or withdraws) work; part of the workflow id. */
  @Column({ type: 'int', unsigned: true, default: 0 }) generation: number;
  /** Temporal run id of this generation's workflow, once its start is known; null: the reconciler starts it. */
  @Column({ type: 'varchar', length: 64, nullable: true }) runId: string | null;
  /** When the current generation's work was asked for; null: nothing is asked for. */
  @Index() @TimeColumn({ nullable: true }) requestedAt: Date | null;
  /** When the run of the current generation began its work. */
  @TimeColumn({ nullable: true }) startedAt: Date | null;
  /** Indexed: the jobs gauge counts the runs that failed in the last hour (domain/metrics/jobs.ts). */
  @Index() @TimeColumn({ nullable: true }) finishedAt: Date | null;
  @Column({ type: 'int', unsigned: true, default: 0 }) progressDone: number;
  @Column({ type: 'int', unsigned: true, nullable: true }) progressTotal: number | null;
  /** Code of a permanent failure (a JobError's), e.g. FETCH_TIMEOUT; null unless the run failed. */
  @Column({ type: 'varchar', length: 64, nullable: true }) errorCode: string | null;
  @Column({ type: 'json', nullable: true }) errorMessages: JobErrorMessage[] | null;
  /** Coalescing kinds: a request arrived during the run, so exactly one more run follows it. */
  @Column({ type: 'boolean', default: false }) rerunRequested: boolean;
}

/** The columns of a row no job was ever asked for. */
export function idleJobState(): JobState {
  return Object.assign(new JobState(), {
    generation: 0,
    runId: null,
    requestedAt: null,
    startedAt: null,
    finishedAt: null,
    progressDone: 0,
    progressTotal: null,
    errorCode: null,
    errorMessages: null,
    rerunRequested: false,
  });
}
