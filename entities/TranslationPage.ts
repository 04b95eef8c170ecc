import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ID_LENGTH } from './columns';

/**
 * A source page a translation has translated, with the hash of its text then: a run sends only the
 * pages whose hash changed (or that the result lacks). Rows stay when a page leaves the source, so
 * `stats.totalPages` counts distinct pages.
 */
@Entity('translation_pages')
export class TranslationPage {
  @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) translationId: string;
  @PrimaryColumn({ type: 'varchar', length: ID_LENGTH, collation: 'utf8mb4_bin' }) pageId: string;
  /**
   * The hash of the source page version whose text the result holds translated (rows of earlier releases: the SHA-1 of
   * its title, description and markdown, still accepted); '' to translate it again.
   */
  @Column({ type: 'char', length: 40 }) sourceHash: string;
}
