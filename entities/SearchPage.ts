import { Column, Entity, Index } from 'typeorm';
import { RefColumn } from './columns';

/**
 * One page of a space's current revision as one full-text document (its sections' titles and
 * text), so ranking enumerates matching pages rather than every matching section.
 */
@Entity('search_pages')
@Index(['title', 'body'], { fulltext: true })
export class SearchPage {
  @RefColumn({ primary: true }) spaceId: string;
  @RefColumn({ primary: true }) pageId: string;
  @Column({ type: 'varchar', length: 512 }) title: string;
  @Column({ type: 'mediumtext' }) body: string;
}
