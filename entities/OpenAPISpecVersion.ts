import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

/** One processed state of an OpenAPI specification: its bundled files, kept in the blob store. */
@Entity('openapi_spec_versions')
@Index(['specId', 'createdAt', 'id'])
@Index(['specId', 'generation'], { unique: true })
export class OpenAPISpecVersion {
  @IdColumn() id: string;
  @RefColumn() specId: string;
  @RefColumn() organizationId: string;
  /** The run that made it: a retried save of the same run finds it instead of adding another. */
  @Column({ type: 'int', unsigned: true }) generation: number;
  /** The URL it was fetched from; null for a text source. */
  @Column({ type: 'varchar', length: 2048, nullable: true }) sourceUrl: string | null;
  /** Blob key of the submitted text it was made from; null for a URL source. */
  @Column({ type: 'varchar', length: 255, nullable: true }) sourceTextKey: string | null;
  /** Blob key of the bundle's filesystem (JSON): each file of the bundle by its path. */
  @Column({ type: 'varchar', length: 255 }) filesystemKey: string;
  /** SHA-256 of the filesystem, so a refresh of unchanged content adds no version. */
  @Column({ type: 'char', length: 64 }) contentHash: string;
  @TimeColumn() createdAt: Date;
}
