import { Column, Entity, Index, VersionColumn } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import { JobState } from './JobState';
import type { SpaceMergeRulesConfiguration } from './merge-rules';
import type { Role } from './vocabulary';

export type EditMode = 'live' | 'locked';
export type SpaceVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

@Entity('spaces')
@Index(['organizationId', 'deletedAt', 'createdAt', 'id'])
@Index(['parentId', 'deletedAt', 'position', 'id'])
export class Space {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  @RefColumn({ nullable: true }) parentId: string | null;
  @Column({ type: 'varchar', length: 128 }) title: string;
  @Column({ type: 'varchar', length: 32, nullable: true }) emoji: string | null;
  @Column({ type: 'varchar', length: 16 }) visibility: SpaceVisibility;
  @Column({ type: 'varchar', length: 8 }) editMode: EditMode;
  @Column({ type: 'varchar', length: 8 }) language: string;
  @Column({ type: 'varchar', length: 16, nullable: true }) defaultLevel: Role | null;
  @RefColumn({ nullable: true }) revisionId: string | null;
  @Column({ type: 'double' }) position: number;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
  @TimeColumn({ nullable: true }) deletedAt: Date | null;
  /** its own merge rules; null: its organization's (`{type: inherit}`) */
  @Column({ type: 'json', nullable: true }) mergeRules: SpaceMergeRulesConfiguration | null;
  /**
   * Counters kept by the writes that change them (domain/spaces/counters.ts), in the same transaction:
   * every change request whatever its status, those open, those draft, and the open comments on the
   * space itself (not on its change requests).
   */
  @Column({ type: 'int', default: 0 }) changeRequestsCount: number;
  @Column({ type: 'int', default: 0 }) changeRequestsOpenCount: number;
  @Column({ type: 'int', default: 0 }) changeRequestsDraftCount: number;
  @Column({ type: 'int', default: 0 }) openCommentsCount: number;
  /**
   * Raised by every change of the row (TypeORM's updates add it; a hand-written UPDATE raises it itself): the
   * space's ETag is built from it (api/middleware/conditional.ts), at no cost on a read.
   */
  @VersionColumn() version: number;
  /** The space-purge job: requested by a deletion, withdrawn by a restore (domain/spaces/deletion.ts). */
  @Column(() => JobState, { prefix: 'purge' }) purge: JobState;
}
