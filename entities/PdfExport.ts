import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import { JobState } from './JobState';

/**
 * One PDF of a change request's revision, or of a space's, with one set of options (a job row of its own,
 * docs/jobs.md). Its id is derived from the change request, the revision and the options, so the same request
 * finds the same row, and the `pdf-export` job renders it once; a new revision is a new row.
 */
@Entity('pdf_exports')
export class PdfExport {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  @RefColumn() spaceId: string;
  /** null: the space's own content (its revision then, not a change request's) */
  @RefColumn({ nullable: true }) changeRequestId: string | null;
  @RefColumn() revisionId: string;
  /** The page the PDF starts from; null: every page of the revision. */
  @RefColumn({ nullable: true }) pageId: string | null;
  /** With `pageId`: that page alone, without its descendants. */
  @Column({ type: 'boolean', default: false }) only: boolean;
  /** Blob key of the rendered file, set by the run that rendered it. */
  @Column({ type: 'varchar', length: 255, nullable: true }) fileKey: string | null;
  /** Pages of the rendered file. */
  @Column({ type: 'int', unsigned: true, nullable: true }) filePages: number | null;
  @Column({ type: 'int', unsigned: true, nullable: true }) fileBytes: number | null;
  @TimeColumn() createdAt: Date;
  /** Every request touches it; the retention of the kind counts from it. */
  @Index() @TimeColumn() lastRequestedAt: Date;
  /** The pdf-export job. */
  @Column(() => JobState, { prefix: 'render' }) render: JobState;
}
