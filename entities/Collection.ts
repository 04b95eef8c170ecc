import { Column, Entity, Index, VersionColumn } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';
import type { Role } from './vocabulary';

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
  /** Raised by every change of the row (TypeORM's updates add it): its ETag is built from it. */
  @VersionColumn() version: number;
}
