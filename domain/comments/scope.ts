/** Where a comment thread lives: on a space, or on one of its change requests. */
import { IsNull } from 'typeorm';
import type { ChangeRequest } from '../../entities/ChangeRequest';
import type { Space } from '../../entities/Space';

export interface CommentScope {
  space: Space;
  /** null for the space's own comments */
  changeRequest: ChangeRequest | null;
}

/** The `where` that keeps a lookup of comments inside the scope. */
export function scopeWhere(scope: CommentScope) {
  return { spaceId: scope.space.id, changeRequestId: scope.changeRequest ? scope.changeRequest.id : IsNull() };
}

/** The content comments of the scope point into: the change request's head, or the space's current revision. */
export function headRevisionId(scope: CommentScope): string | null {
  return scope.changeRequest ? scope.changeRequest.revisionId : scope.space.revisionId;
}
