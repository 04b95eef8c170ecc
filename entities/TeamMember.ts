import { Column, Entity, Index } from 'typeorm';
import { RefColumn, TimeColumn } from './columns';

export type TeamRole = 'owner' | 'member';

@Entity('team_members')
export class TeamMember {
  @RefColumn({ primary: true }) teamId: string;
  @Index() @RefColumn({ primary: true }) userId: string;
  @Column({ type: 'varchar', length: 16 }) role: TeamRole;
  @TimeColumn() addedAt: Date;
}
