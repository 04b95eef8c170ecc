import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import type { Role } from './vocabulary';

@Entity('saml_providers')
@Index(['organizationId', 'createdAt', 'id'])
export class SamlProvider {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 255 }) label: string;
  @Column({ type: 'varchar', length: 1024 }) entityID: string;
  @Column({ type: 'text' }) certificate: string;
  @Column({ type: 'varchar', length: 2048 }) ssoURL: string;
  @RefColumn({ nullable: true }) defaultTeamId: string | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) defaultRole: Role | null;
  @Column({ type: 'varchar', length: 16 }) status: string;
  @TimeColumn() createdAt: Date;
}
