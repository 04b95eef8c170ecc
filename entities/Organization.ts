import { Column, Entity, Index } from 'typeorm';
import { IdColumn, TimeColumn } from './columns';
import type { MergeRulesConfiguration } from './merge-rules';
import type { Role } from './vocabulary';

@Entity('organizations')
export class Organization {
  @IdColumn() id: string;
  @Column({ type: 'varchar', length: 255 }) title: string;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
  @Column({ type: 'json' }) emailDomains: string[];
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 32, nullable: true })
  hostname: string | null;
  @Column({ type: 'varchar', length: 32 }) type: string;
  @Column({ type: 'varchar', length: 32, nullable: true }) useCase: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) communityType: string | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) defaultRole: Role | null;
  @Column({ type: 'json', nullable: true }) defaultContent: { type: string; site: string } | null;
  @Column({ type: 'varchar', length: 2048, nullable: true }) logoURL: string | null;
  @Column({ type: 'boolean', default: false }) sso: boolean;
  @Column({ type: 'boolean', default: false }) ai: boolean;
  @Column({ type: 'boolean', default: true }) inviteLinks: boolean;
  @Column({ type: 'varchar', length: 32 }) plan: string;
  /** the merge rules of its spaces that inherit them; null: none */
  @Column({ type: 'json', nullable: true }) mergeRules: MergeRulesConfiguration | null;
}
