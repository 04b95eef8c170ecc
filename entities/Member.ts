import { Column, Entity, Index } from 'typeorm';
import { RefColumn, TimeColumn } from './columns';
import type { Role } from './vocabulary';

/** Membership of a user in an organization; a null role is a guest. */
@Entity('members')
@Index(['organizationId', 'joinedAt', 'userId'])
@Index(['organizationId', 'lastSeenAt', 'userId'])
export class Member {
  @RefColumn({ primary: true }) organizationId: string;
  @Index() @RefColumn({ primary: true }) userId: string;
  @Column({ type: 'varchar', length: 16, nullable: true }) role: Role | null;
  @Column({ type: 'boolean', default: false }) disabled: boolean;
  @Column({ type: 'boolean', default: false }) sso: boolean;
  @TimeColumn() joinedAt: Date;
  @TimeColumn({ nullable: true }) lastSeenAt: Date | null;
}
