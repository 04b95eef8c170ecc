import { Column, Entity } from 'typeorm';
import { RefColumn } from './columns';

/** One section (split at headings) of a page in a space's current revision, shown in search results. */
@Entity('search_sections')
export class SearchSection {
  @RefColumn({ primary: true }) spaceId: string;
  @RefColumn({ primary: true }) pageId: string;
  @Column({ type: 'int', primary: true }) ordinal: number;
  @Column({ type: 'varchar', length: 128 }) anchor: string;
  @Column({ type: 'varchar', length: 512 }) title: string;
  @Column({ type: 'mediumtext' }) body: string;
}
