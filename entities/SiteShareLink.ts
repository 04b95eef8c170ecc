import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

/**
 * A share link of a `share-link` site: its key, handed to readers in the site's URL, opens the published
 * site to them while the link is active. The key is shown to the site's admins (it is the link), and
 * compared in constant time against each active key of the site (domain/sites/share-links.ts).
 */
@Entity('site_share_links')
@Index(['siteId', 'createdAt', 'id'])
export class SiteShareLink {
  @IdColumn() id: string;
  @RefColumn() siteId: string;
  @Column({ type: 'varchar', length: 50 }) name: string;
  @Column({ type: 'varchar', length: 64, charset: 'ascii', collation: 'ascii_bin' }) key: string;
  @Column({ type: 'boolean' }) active: boolean;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
