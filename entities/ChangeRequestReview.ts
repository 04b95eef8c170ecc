import { Column, Entity, Index } from 'typeorm';
import { IdColumn, RefColumn, TimeColumn } from './columns';

export type ChangeRequestReviewStatus = 'approved' | 'changes-requested';

/**
 * A reviewer's verdict on a change request, made against its head revision of the moment (`revisionId`): a later
 * commit leaves it standing but stale, so it no longer counts towards a merge rule (domain/merge-rules/).
 */
@Entity('change_request_reviews')
@Index(['changeRequestId', 'createdAt', 'id'])
export class ChangeRequestReview {
  @IdColumn() id: string;
  @RefColumn() spaceId: string;
  @RefColumn() changeRequestId: string;
  @RefColumn() reviewerId: string;
  /** who had requested this reviewer's review, when the review answered a request */
  @RefColumn({ nullable: true }) requestedById: string | null;
  @Column({ type: 'varchar', length: 24 }) status: ChangeRequestReviewStatus;
  @RefColumn() revisionId: string;
  /** the comment posted with the review, on the change request's comments */
  @RefColumn({ nullable: true }) commentId: string | null;
  @TimeColumn() createdAt: Date;
  @TimeColumn() updatedAt: Date;
}
