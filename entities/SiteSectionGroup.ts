import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

/** A named group of sections at the root level of a site; its sections point at it. */
@Entity('site_section_groups')
@Index(['siteId', 'position'])
export class SiteSectionGroup {
  @IdColumn() id: string;
  @RefColumn() siteId: string;
  @Column({ type: 'varchar', length: 100 }) title: string;
  @Column({ type: 'varchar', length: 50, nullable: true }) icon: string | null;
  /** Order at the root level, shared with the sections there: 0..n-1 without gaps. */
  @Column({ type: 'int', unsigned: true }) position: number;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
