import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

/** A bearer token; only the SHA-256 of its secret is stored. */
@Entity('api_tokens')
/** finds an integration's expired tokens, for their removal */
@Index(['integrationId', 'expiresAt'])
export class ApiToken {
  @IdColumn() id: string;
  @Index() @RefColumn() userId: string;
  @Index({ unique: true })
  @Column({ type: 'char', length: 64 })
  secretHash: string;
  @Column({ type: 'varchar', length: 100 }) label: string;
  @TimeColumn() createdAt: Date;
  @TimeColumn({ nullable: true }) expiresAt: Date | null;
  @TimeColumn({ nullable: true }) revokedAt: Date | null;
  /** Set on an integration's short-lived token: it acts only as the integration's scopes allow. */
  @RefColumn({ nullable: true }) integrationId: string | null;
  /** Set on an installation token: it acts only within that installation. */
  @RefColumn({ nullable: true }) installationId: string | null;
}
