import { Column, Entity, Index, VersionColumn } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

export type SiteType = 'basic' | 'premium' | 'ultimate' | 'sponsored' | 'legacy-basic' | 'legacy-premium';
export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
export type SiteAgentsContext = 'excluded' | 'included';

/**
 * A docs site of an organization: the published face of some of its spaces, arranged in sections,
 * section groups and site spaces (SiteSection, SiteSectionGroup, SiteSpace). Every write to a site's
 * structure first locks this row (domain/sites/lock.ts), so the structure changes one writer at a time.
 */
@Entity('sites')
@Index(['organizationId', 'createdAt', 'id'])
export class Site {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 16 }) type: SiteType;
  @Column({ type: 'varchar', length: 128 }) title: string;
  /** Unique across the service; lowercase by its pattern, so compared byte for byte. */
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 512, nullable: true, charset: 'ascii', collation: 'ascii_bin' })
  hostname: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) basename: string | null;
  /** The proxy origin (host plus path, e.g. `example.com/docs`). */
  @Column({ type: 'varchar', length: 512, nullable: true }) proxy: string | null;
  @Column({ type: 'varchar', length: 16 }) visibility: SiteVisibility;
  @Column({ type: 'boolean' }) published: boolean;
  @Column({ type: 'boolean' }) adaptiveContentEnabled: boolean;
  @Column({ type: 'varchar', length: 16 }) agentsContext: SiteAgentsContext;
  /** The visitor claims' JSON Schema (GET/PUT …/adaptive-schema); null until one is set. */
  @Column({ type: 'json', nullable: true }) adaptiveSchema: Record<string, unknown> | null;
  @TimeColumn({ nullable: true }) adaptiveSchemaUpdatedAt: Date | null;
  /** The default section; null or a section that is gone or hidden: the first one in order. */
  @RefColumn({ nullable: true }) defaultSiteSectionId: string | null;
  /** The default site space at the root level (a site without sections); same fallback. */
  @RefColumn({ nullable: true }) defaultSiteSpaceId: string | null;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
  /** Raised by every change of the row (TypeORM's updates add it): its ETag is built from it. */
  @VersionColumn() version: number;
}
