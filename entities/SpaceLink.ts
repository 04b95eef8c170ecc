import { Column, Entity, Index } from 'typeorm';
import { RefColumn } from './columns';

export type LinkKind = 'page' | 'file' | 'space' | 'openapi' | 'url';
export type LinkStatus = 'ok' | 'broken' | 'in-app';

/** A link found in a page of a space's current revision (maintained as revisions land). */
@Entity('space_links')
@Index(['spaceId', 'targetKey'])
@Index(['spaceId', 'status'])
@Index(['targetKey'])
export class SpaceLink {
  @RefColumn({ primary: true }) spaceId: string;
  @RefColumn({ primary: true }) sourcePageId: string;
  @Column({ type: 'int', primary: true }) ordinal: number;
  @Column({ type: 'varchar', length: 16 }) kind: LinkKind;
  /** page/file/space id, page path, OpenAPI slug or URL */
  @Column({ type: 'varchar', length: 2048 }) target: string;
  /** SHA-1 of kind and resolved target, so lookups by target use an index whatever the URL length */
  @Column({ type: 'char', length: 40 }) targetKey: string;
  @Column({ type: 'varchar', length: 16 }) status: LinkStatus;
}
