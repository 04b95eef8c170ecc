import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An immutable, content-addressed JSON object (trie node or page version). */
@Entity('content_objects')
export class ContentObject {
  @PrimaryColumn({ type: 'char', length: 40 }) hash: string;
  @Column({ type: 'longtext' }) body: string;
}
