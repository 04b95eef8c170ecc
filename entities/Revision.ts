import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

export type RevisionType = 'initial' | 'edits' | 'merge' | 'update' | 'template' | 'import';

/** An immutable snapshot of a space's content: `root` is the hash of its content trie. */
@Entity('revisions')
@Index(['spaceId', 'createdAt'])
@Index(['changeRequestId', 'createdById'])
export class Revision {
  @IdColumn() id: string;
  @RefColumn() spaceId: string;
  @RefColumn({ nullable: true }) changeRequestId: string | null;
  @Column({ type: 'json' }) parents: string[];
  @Column({ type: 'varchar', length: 16 }) type: RevisionType;
  @Column({ type: 'char', length: 40 }) root: string;
  @Column({ type: 'json' }) variables: Record<string, string>;
  @RefColumn({ nullable: true }) createdById: string | null;
  @TimeColumn() createdAt: Date;
}
