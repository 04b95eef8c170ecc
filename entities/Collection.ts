import { Column, Entity, Index } from 'typeorm';
import type { Role } from '../domain/access/roles';
import { IdColumn, RefColumn, TimeColumn } from './columns';

@Entity('collections')
@Index(['organizationId', 'parentId', 'position', 'id'])
export class Collection {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  @RefColumn({ nullable: true }) parentId: string | null;
  @Column({ type: 'varchar', length: 50 }) title: string;
  @Column({ type: 'varchar', length: 100, nullable: true }) description: string | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) defaultLevel: Role | null;
  /** Order among siblings (collections and spaces share one ordering under a parent). */
  @Column({ type: 'double' }) position: number;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
