import { Column, Entity, Index, VersionColumn } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

/** A branch of a space's content; `revisionId` is its head. */
@Entity('change_requests')
@Index(['spaceId', 'number'], { unique: true })
@Index(['spaceId', 'status', 'number'])
export class ChangeRequest {
  @IdColumn() id: string;
  @RefColumn() spaceId: string;
  @Column({ type: 'int' }) number: number;
  @Column({ type: 'varchar', length: 16 }) status: ChangeRequestStatus;
  @Column({ type: 'varchar', length: 100 }) subject: string;
  @Column({ type: 'varchar', length: 128, nullable: true }) agentTaskId: string | null;
  /** what the change is about, as markdown (GitBook 0.202's `description`); null: none */
  @Column({ type: 'mediumtext', nullable: true }) description: string | null;
  @RefColumn() createdById: string;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
  @RefColumn() revisionInitialId: string;
  @RefColumn() revisionId: string;
  @RefColumn({ nullable: true }) revisionMergedAncestorId: string | null;
  @RefColumn({ nullable: true }) revisionMergedId: string | null;
  @TimeColumn({ nullable: true }) mergedAt: Date | null;
  /** Raised by every change of the row (TypeORM's updates add it): its ETag is built from it. */
  @VersionColumn() version: number;
}
