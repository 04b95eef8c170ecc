import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import { JobState } from './JobState';

/** The sources `POST {content}/import` builds (GitBook's ImportContentSource, less the ones not supported here). */
export type ImportSource = 'website' | 'html' | 'markdown' | 'zip' | 'docx';

/**
 * One import of content from a URL into a space's or a change request's head (docs/jobs.md: a job row of
 * its own). The `content-import` job stages the pages, then commits them as one revision, which it
 * records here; the API and `cli jobs` read the run's state from this row.
 */
@Entity('import_runs')
@Index(['organizationId', 'createdAt', 'id'])
@Index(['spaceId', 'changeRequestId'])
export class ImportRun {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  @RefColumn() spaceId: string;
  /** The change request imported into; null: the space's live content. */
  @RefColumn({ nullable: true }) changeRequestId: string | null;
  @Column({ type: 'varchar', length: 16 }) source: ImportSource;
  @Column({ type: 'varchar', length: 2048 }) url: string;
  @RefColumn() createdById: string;
  /** The revision the import committed; set in the commit's transaction, so at most one. */
  @RefColumn({ nullable: true }) revisionId: string | null;
  /** Pages the commit created (folder pages for URL paths without a page of their own excluded). */
  @Column({ type: 'int', unsigned: true, default: 0 }) importedResources: number;
  /** Pages the import processed: fetched or unpacked, imported or skipped. */
  @Column({ type: 'int', unsigned: true, default: 0 }) totalResources: number;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
  /** The content-import job. */
  @Column(() => JobState, { prefix: 'process' }) process: JobState;
}
