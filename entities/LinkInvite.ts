import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import type { Role } from './vocabulary';

/** An invite link into an organization (only deletion is exposed by the spec). */
@Entity('link_invites')
export class LinkInvite {
  @IdColumn() id: string;
  @Index() @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 16, nullable: true }) role: Role | null;
  @TimeColumn() createdAt: Date;
}
