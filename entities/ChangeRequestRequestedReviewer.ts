import { Entity, Index } from 'typeorm';
import { RefColumn, TimeColumn } from './columns';

/** A review asked of a user on a change request, until they review it or the request is withdrawn. */
@Entity('change_request_requested_reviewers')
@Index(['changeRequestId', 'createdAt', 'userId'])
export class ChangeRequestRequestedReviewer {
  @RefColumn({ primary: true }) changeRequestId: string;
  @RefColumn({ primary: true }) userId: string;
  @RefColumn() requestedById: string;
  /** the change request's head revision when the review was asked */
  @RefColumn() revisionId: string;
  @TimeColumn() createdAt: Date;
}
