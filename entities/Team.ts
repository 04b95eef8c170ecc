import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

@Entity('teams')
@Index(['organizationId', 'createdAt', 'id'])
export class Team {
  @IdColumn() id: string;
  @RefColumn() organizationId: string;
  @Column({ type: 'varchar', length: 255 }) title: string;
  @TimeColumn() createdAt: Date;
}
