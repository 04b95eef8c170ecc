import { Column, Entity, Index, VersionColumn } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

export type CommentStatus = 'open' | 'resolved';

/**
 * A discussion thread on a space (changeRequestId null) or on a change request, optionally anchored
 * to a page, a node of that page or a table cell. `replies` is a counter kept by atomic increments.
 */
@Entity('comments')
@Index(['spaceId', 'changeRequestId', 'postedAt', 'id'])
@Index(['spaceId', 'changeRequestId', 'status'])
@Index(['changeRequestId', 'status'])
export class Comment {
  @IdColumn() id: string;
  @RefColumn() spaceId: string;
  @RefColumn({ nullable: true }) changeRequestId: string | null;
  @RefColumn({ nullable: true }) pageId: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) nodeId: string | null;
  @Column({ type: 'varchar', length: 512, nullable: true }) nodePreview: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) tableCellRecord: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) tableCellDefinition: string | null;
  /** the revision the target was read from when the comment was posted */
  @RefColumn() revisionId: string;
  /** hash of the page's version when the comment was posted: a different current version makes it outdated */
  @Column({ type: 'char', length: 40, nullable: true }) pageVersion: string | null;
  /** markdown; empty for an empty body */
  @Column({ type: 'mediumtext' }) body: string;
  @RefColumn() postedById: string;
  @TimeColumn() postedAt: Date;
  @TimeColumn({ nullable: true }) editedAt: Date | null;
  @Column({ type: 'varchar', length: 16 }) status: CommentStatus;
  @TimeColumn({ nullable: true }) resolvedAt: Date | null;
  @RefColumn({ nullable: true }) resolvedById: string | null;
  @Column({ type: 'int', default: 0 }) replies: number;
  /** Raised by every change of the row (TypeORM's updates add it): its ETag is built from it. */
  @VersionColumn() version: number;
}
