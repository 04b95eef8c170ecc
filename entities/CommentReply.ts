import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

/** A reply in a comment's thread. */
@Entity('comment_replies')
@Index(['commentId', 'postedAt', 'id'])
export class CommentReply {
  @IdColumn() id: string;
  @RefColumn() commentId: string;
  /** markdown */
  @Column({ type: 'mediumtext' }) body: string;
  @RefColumn() postedById: string;
  @TimeColumn() postedAt: Date;
  @TimeColumn({ nullable: true }) editedAt: Date | null;
}
