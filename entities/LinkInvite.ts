import { Column, Entity, Index } from 'typeorm';
import type { Role } from '../domain/access/roles';
import { IdColumn, RefColumn, TimeColumn } from './columns';

/** An invite link into an organization (only deletion is exposed by the spec). */
@Entity('link_invites')
export class LinkInvite {
  @IdColumn() id: string;
  @Index() @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 16, nullable: true }) role: Role | null;
  @TimeColumn() createdAt: Date;
}
