import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

/**
 * The link of an invitation mail that issues the invited person's first API token, once (domain/invites/first-token.ts).
 * Only the SHA-256 of its secret is stored.
 */
@Entity('invite_tokens')
export class InviteToken {
  @IdColumn() id: string;
  @Index({ unique: true })
  @Column({ type: 'char', length: 64, charset: 'ascii', collation: 'ascii_bin' })
  secretHash: string;
  @RefColumn() organizationId: string;
  @Index() @RefColumn() userId: string;
  @TimeColumn() createdAt: Date;
  @TimeColumn() expiresAt: Date;
  /** When it issued its token; a used link issues none again. */
  @TimeColumn({ nullable: true }) usedAt: Date | null;
}
