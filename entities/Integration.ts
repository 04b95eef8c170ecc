import { Column, Entity, Index, VersionColumn } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

export type IntegrationVisibility = 'public' | 'private' | 'unlisted';
export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization';
export type IntegrationRuntime = 'v1' | 'v2';

/**
 * A published integration, addressed by its unique name and owned by one organization. Publishing
 * again updates it and bumps `version`. Its script, icon and preview images live in the blob store;
 * its secrets are stored encrypted (AES-GCM) and never returned. Unpublishing leaves a tombstone
 * (`deletedAt`), invisible to reads, until the `installation_deleted` deliveries have ended.
 */
@Entity('integrations')
export class Integration {
  @IdColumn() id: string;
  /** Unique, compared byte for byte. */
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 100, collation: 'utf8mb4_bin' })
  name: string;
  @Index() @RefColumn() ownerOrganizationId: string;
  /** The user the integration acts as when it calls the API with its tokens (never a member). */
  @RefColumn() botUserId: string;
  @Column({ type: 'int', unsigned: true }) version: number;
  @Column({ type: 'varchar', length: 4, default: 'v1' }) runtime: IntegrationRuntime;
  @Column({ type: 'varchar', length: 30 }) title: string;
  @Column({ type: 'varchar', length: 400 }) description: string;
  @Column({ type: 'text' }) summary: string;
  @Column({ type: 'varchar', length: 16 }) visibility: IntegrationVisibility;
  @Column({ type: 'varchar', length: 16 }) target: IntegrationTarget;
  @Column({ type: 'boolean', default: false }) verified: boolean;
  @Column({ type: 'json' }) scopes: string[];
  @Column({ type: 'json' }) categories: string[];
  /** As published (validated), presented as is. */
  @Column({ type: 'json' }) blocks: Array<Record<string, unknown>>;
  @Column({ type: 'json' }) contentSources: Array<Record<string, unknown>>;
  @Column({ type: 'json' }) externalLinks: Array<{ url: string; label: string }>;
  @Column({ type: 'json' }) configurations: Record<string, unknown>;
  /** The policy as one header value (an object form is joined into one). */
  @Column({ type: 'text', nullable: true }) contentSecurityPolicy: string | null;
  @Column({ type: 'varchar', length: 255 }) scriptKey: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) iconKey: string | null;
  @Column({ type: 'json' }) previewImageKeys: string[];
  /** AES-GCM ciphertext of the secrets map (iv, tag and data, base64), null when none. */
  @Column({ type: 'text', nullable: true }) secretsCiphertext: string | null;
  /** Signs what the integration itself receives (environment.signingSecrets.integration). */
  @Column({ type: 'varchar', length: 64, charset: 'ascii', collation: 'ascii_bin' }) signingSecret: string;
  /** Development mode: events go to this tunnel (through the guarded fetch); null when off. */
  @Column({ type: 'varchar', length: 256, nullable: true }) devTunnelUrl: string | null;
  /** Development mode for every organization's events, not only the owner's. */
  @Column({ type: 'boolean', default: false }) devAll: boolean;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
  /** Set by unpublish: a tombstone until its last deliveries end. */
  @TimeColumn({ nullable: true }) deletedAt: Date | null;
  /** Raised by every change of the row (TypeORM's updates add it), unlike `version`: its ETag is built from it. */
  @VersionColumn() rowVersion: number;
}
