import { Column, Entity } from 'typeorm';
import { RefColumn, TimeColumn } from './columns';

export type ReactionTargetKind = 'comment' | 'reply';

/** One user's emoji on a comment or a reply; the key makes reacting twice count once. */
@Entity('comment_reactions')
export class CommentReaction {
  @Column({ type: 'varchar', length: 8, primary: true }) targetKind: ReactionTargetKind;
  @RefColumn({ primary: true }) targetId: string;
  /** binary collation: the unicode collation would rank many distinct emoji as equal */
  @Column({ type: 'varchar', length: 64, primary: true, collation: 'utf8mb4_bin' }) emoji: string;
  @RefColumn({ primary: true }) userId: string;
  @TimeColumn() reactedAt: Date;
}
