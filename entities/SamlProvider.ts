import { Column, Entity, Index } from 'typeorm';
import type { Role } from '../domain/access/roles';
import { IdColumn, RefColumn, TimeColumn } from './columns';

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
