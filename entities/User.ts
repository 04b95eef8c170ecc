import { Column, Entity, Index } from 'typeorm';
import { IdColumn, TimeColumn } from './columns';

@Entity('users')
export class User {
  @IdColumn() id: string;
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 320 })
  email: string;
  @Column({ type: 'varchar', length: 255 }) displayName: string;
  @Column({ type: 'varchar', length: 2048, nullable: true }) photoURL: string | null;
  @TimeColumn() createdAt: Date;
}
