/** The two places comment threads live; every comment operation is defined once and mounted for each. */
import type { ZodRawShape } from 'zod';
import type { AccessContext } from '../../../domain/access/context';
import type { CommentScope } from '../../../domain/comments/scope';
import { loadChangeRequest, loadSpace } from '../../loaders';
import { resourceId } from '../../schemas';

export interface CommentForm {
  /** operationId infix */
  name: 'Space' | 'ChangeRequest';
  tag: string;
  /** the comment list's path */
  path: string;
  params: ZodRawShape;
  /** loads the space (and change request) named by the path; 404 when missing */
  load(access: AccessContext, params: Record<string, string>): Promise<CommentScope>;
}

export const spaceCommentForm: CommentForm = {
  name: 'Space',
  tag: 'comments',
  path: '/v1/spaces/{spaceId}/comments',
  params: { spaceId: resourceId },
  load: async (access, params) => ({ space: await loadSpace(access, params.spaceId), changeRequest: null }),
};

export const changeRequestCommentForm: CommentForm = {
  name: 'ChangeRequest',
  tag: 'change-request comments',
  path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments',
  params: { spaceId: resourceId, changeRequestId: resourceId },
  load: async (access, params) => {
    const space = await loadSpace(access, params.spaceId);
    return { space, changeRequest: await loadChangeRequest(access, space, params.changeRequestId) };
  },
};
