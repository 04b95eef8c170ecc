import { Column, Entity, Index } from 'typeorm';
import { RefColumn, TimeColumn } from './columns';
import type { Role } from './vocabulary';

export type GrantTargetKind = 'space' | 'collection';
export type GrantPrincipalKind = 'user' | 'team';

/** An explicit role on a space or collection for a user or a team, on top of defaultLevel inheritance. */
@Entity('content_grants')
@Index(['principalKind', 'principalId'])
export class ContentGrant {
  @Column({ type: 'varchar', length: 16, primary: true }) targetKind: GrantTargetKind;
  @RefColumn({ primary: true }) targetId: string;
  @Column({ type: 'varchar', length: 8, primary: true }) principalKind: GrantPrincipalKind;
  @RefColumn({ primary: true }) principalId: string;
  @Index() @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 16 }) role: Role;
  @TimeColumn() createdAt: Date;
}
