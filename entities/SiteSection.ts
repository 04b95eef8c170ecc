import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

/** A section of a site (a tab of distinct content), at the root level or in a section group; its variants are site spaces. */
@Entity('site_sections')
@Index(['siteId', 'sectionGroupId', 'position'])
export class SiteSection {
  @IdColumn() id: string;
  @RefColumn() siteId: string;
  /** null: at the root level of the site. */
  @RefColumn({ nullable: true }) sectionGroupId: string | null;
  @Column({ type: 'varchar', length: 128 }) title: string;
  @Column({ type: 'varchar', length: 256, nullable: true }) description: string | null;
  @Column({ type: 'varchar', length: 50, nullable: true }) icon: string | null;
  /** Unique among the site's sections (groups add nothing to URLs); compared byte for byte. */
  @Column({ type: 'varchar', length: 100, collation: 'utf8mb4_bin' }) path: string;
  /** An expression over the visitor's claims, checked against the site's adaptive schema when set. */
  @Column({ type: 'varchar', length: 1024, nullable: true }) condition: string | null;
  /** The default variant; null or one that is gone or hidden: the first one in order. */
  @RefColumn({ nullable: true }) defaultSiteSpaceId: string | null;
  /** Order among its siblings (the root level, with the groups, or its group): 0..n-1 without gaps. */
  @Column({ type: 'int', unsigned: true }) position: number;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
