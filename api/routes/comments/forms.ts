/** The two places comment threads live; every comment operation is defined once and mounted for each. */
import type { ZodRawShape } from 'zod';
import { authorize } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import type { CommentScope } from '../../../domain/comments/scope';
import type { Space } from '../../../entities/Space';
import { loadChangeRequest, loadSpace } from '../../loaders';
import { pathId } from '../../schemas';

const spaceId = pathId('space').openapi({ description: 'id of the space' });
const changeRequestId = pathId('change request').openapi({
  description: 'id of the change request, or its number in the space',
});

export interface CommentForm {
  /** operationId infix */
  name: 'Space' | 'ChangeRequest';
  tag: string;
  /** the path of the space or change request the threads are on */
  scopePath: string;
  /** the comment list's path */
  path: string;
  params: ZodRawShape;
  /** loads the space (and change request) named by the path; 404 when missing or the caller cannot view the space */
  load(access: AccessContext, params: Record<string, string>): Promise<CommentScope>;
}

async function viewableSpace(access: AccessContext, spaceId: string): Promise<Space> {
  const space = await loadSpace(access, spaceId);
  await authorize(access, { kind: 'space', space }, 'view');
  return space;
}

export const spaceCommentForm: CommentForm = {
  name: 'Space',
  tag: 'comments',
  scopePath: '/v1/spaces/{spaceId}',
  path: '/v1/spaces/{spaceId}/comments',
  params: { spaceId },
  load: async (access, params) => ({ space: await viewableSpace(access, params.spaceId), changeRequest: null }),
};

export const changeRequestCommentForm: CommentForm = {
  name: 'ChangeRequest',
  tag: 'change-request comments',
  scopePath: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}',
  path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments',
  params: { spaceId, changeRequestId },
  load: async (access, params) => {
    // the space first: whether a change request exists is nobody's business who cannot see the space
    const space = await viewableSpace(access, params.spaceId);
    return { space, changeRequest: await loadChangeRequest(access, space, params.changeRequestId) };
  },
};
