import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import type { Role } from './vocabulary';

/** What a link invite lets its holder join: the organization with a role, or one space or collection with a level. */
export type LinkInviteTargetKind = 'organization' | 'space' | 'collection';

/** An invite link into an organization: its id is the link's secret. */
@Entity('link_invites')
export class LinkInvite {
  @IdColumn() id: string;
  @Index() @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 16, default: 'organization' }) targetKind: LinkInviteTargetKind;
  /** the space or collection; null for a link to the organization */
  @RefColumn({ nullable: true }) targetId: string | null;
  /** the organization role, or the level on the space or collection (null: a guest of the organization) */
  @Column({ type: 'varchar', length: 16, nullable: true }) role: Role | null;
  /** who made the link: it lets people join only while they may still manage invites there (null: made before) */
  @RefColumn({ nullable: true }) createdBy: string | null;
  @TimeColumn() createdAt: Date;
  @TimeColumn({ nullable: true }) expiresAt: Date | null;
  @Column({ type: 'boolean', default: false }) disabled: boolean;
}
