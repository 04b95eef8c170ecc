import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import { JobState } from './JobState';

/**
 * A translation of a space into another language (GitBook's Translation). Its `translation-run` job
 * writes the translated pages into the result space, created by the first run next to the source;
 * `stats` count completed runs.
 */
@Entity('translations')
@Index(['organizationId', 'createdAt', 'id'])
export class Translation {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  @Index() @RefColumn() sourceSpaceId: string;
  @Column({ type: 'varchar', length: 8 }) sourceLanguage: string;
  @Column({ type: 'varchar', length: 8 }) language: string;
  /** The instructions as markdown (sent and presented as GitBook's document); '' when none. */
  @Column({ type: 'text' }) instructions: string;
  @RefColumn({ nullable: true }) resultSpaceId: string | null;
  @RefColumn({ nullable: true }) resultRevisionId: string | null;
  @Column({ type: 'int', unsigned: true, default: 0 }) runs: number;
  @Column({ type: 'int', unsigned: true, default: 0 }) totalWords: number;
  /** Distinct pages translated over all runs. */
  @Column({ type: 'int', unsigned: true, default: 0 }) totalPages: number;
  /** Seconds, the sum of the runs' rounded durations. */
  @Column({ type: 'int', unsigned: true, default: 0 }) totalDuration: number;
  @Column({ type: 'int', unsigned: true, default: 0 }) latestRunDuration: number;
  @Column({ type: 'int', unsigned: true, default: 0 }) latestPages: number;
  @Column({ type: 'int', unsigned: true, default: 0 }) latestWords: number;
  /** The run whose result was written: a retried last step finds it done. */
  @Column({ type: 'int', unsigned: true, default: 0 }) appliedGeneration: number;
  /** The run whose intermediate blobs (plan, translated batches) are still stored; null: none. */
  @Column({ type: 'int', unsigned: true, nullable: true }) stagedGeneration: number | null;
  @RefColumn() createdById: string;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
  /** The translation-run job: asked for by create and by POST run; a run asked for during a run coalesces. */
  @Column(() => JobState, { prefix: 'run' }) run: JobState;
}
