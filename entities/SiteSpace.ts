import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

/**
 * A space published in a site: a variant of a section, or an item at the root level of a site without
 * sections. One whose space is soft-deleted is hidden everywhere until the space is restored; the
 * space's purge deletes it (domain/spaces/purge.ts).
 */
@Entity('site_spaces')
@Index(['siteId', 'sectionId', 'position'])
@Index(['spaceId'])
export class SiteSpace {
  @IdColumn() id: string;
  @RefColumn() siteId: string;
  /** null: at the root level of a site without sections. */
  @RefColumn({ nullable: true }) sectionId: string | null;
  @RefColumn() spaceId: string;
  /** Unique among its siblings; compared byte for byte. */
  @Column({ type: 'varchar', length: 100, collation: 'utf8mb4_bin' }) path: string;
  @Column({ type: 'varchar', length: 1024, nullable: true }) condition: string | null;
  /** Order among its siblings (its section, or the root level): 0..n-1 without gaps. */
  @Column({ type: 'int', unsigned: true }) position: number;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
