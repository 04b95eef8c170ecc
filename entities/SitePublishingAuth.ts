import { Column, Entity } from 'typeorm';
import { RefColumn, TimeColumn } from './columns';

/**
 * The visitor token signing key of a site (GitBook's SitePublishingAuth, `backend: "custom"`): visitors of
 * a `visitor-auth` site, and visitors whose claims adapt a site's content, present JWTs signed with it
 * (HS256). Made on first read; regenerating it replaces it, so older tokens fail at once.
 */
@Entity('site_publishing_auth')
export class SitePublishingAuth {
  @RefColumn({ primary: true }) siteId: string;
  @Column({ type: 'varchar', length: 64, charset: 'ascii', collation: 'ascii_bin' }) privateKey: string;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
