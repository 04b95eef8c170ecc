import { Column, Entity, Index, VersionColumn } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import { JobState } from './JobState';

export type OpenAPISpecVisibility = 'private' | 'public';

/**
 * An OpenAPI specification of an organization, addressed by its slug. Its source is a URL (fetched
 * through the guarded client, refreshed on a schedule) or a submitted text (kept in the blob store);
 * the `openapi-process` job turns the source into versions (OpenAPISpecVersion).
 */
@Entity('openapi_specs')
@Index(['organizationId', 'slug'], { unique: true })
export class OpenAPISpec {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  /** Unique per organization; compared byte for byte like GitBook's case-sensitive slugs. */
  @Column({ type: 'varchar', length: 100, collation: 'utf8mb4_bin' }) slug: string;
  /** The source URL; null for a text source. */
  @Column({ type: 'varchar', length: 2048, nullable: true }) sourceUrl: string | null;
  /** Blob key of a submitted text source; null for a URL source. */
  @Column({ type: 'varchar', length: 255, nullable: true }) sourceTextKey: string | null;
  @Column({ type: 'varchar', length: 16, default: 'private' }) visibility: OpenAPISpecVisibility;
  /** The newest version; a failed run keeps it. */
  @RefColumn({ nullable: true }) lastVersionId: string | null;
  /** When a run last ended, successfully or not. */
  @TimeColumn({ nullable: true }) lastProcessedAt: Date | null;
  /** How many problems the last failed run found (its messages are truncated on the job state). */
  @Column({ type: 'int', unsigned: true, default: 0 }) lastProcessedErrorCount: number;
  @RefColumn({ nullable: true }) createdById: string | null;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
  /** The openapi-process job: asked for by create, replace and the refresh schedule. */
  @Column(() => JobState, { prefix: 'process' }) process: JobState;
  /** Raised by every change of the row (TypeORM's updates add it): its ETag is built from it. */
  @VersionColumn() version: number;
}
