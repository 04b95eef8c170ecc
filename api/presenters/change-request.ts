import { z } from 'zod';
import type { ChangeRequestDetails } from '../../domain/content/change-request-queries';
import { isOutdated } from '../../domain/content/change-requests';
import type { ChangeRequestStatus } from '../../entities/ChangeRequest';
import type { Space } from '../../entities/Space';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, timestamp } from './common';
import type { Urls } from './urls';
import { presentUser, userSchema } from './user';

export const CHANGE_REQUEST_STATUSES = [
  'draft',
  'open',
  'archived',
  'merged',
] as const satisfies readonly ChangeRequestStatus[];

export const changeRequestSchema = z
  .object({
    object: z.literal('change-request'),
    id: z.string(),
    number: z.number().int(),
    status: z.enum(CHANGE_REQUEST_STATUSES),
    subject: z.string(),
    createdBy: userSchema,
    createdAt: timestamp,
    updatedAt: timestamp,
    space: z.string().openapi({ description: 'id of the space (GitBook 0.202)' }),
    revision: z.string(),
    revisionInitial: z.string(),
    revisionMergedAncestor: z
      .string()
      .optional()
      .openapi({ description: 'absent until the change request is updated from the main content' }),
    revisionMerged: z.string().optional().openapi({ description: 'absent until merged' }),
    comments: z.number().int(),
    outdated: z.boolean(),
    urls: z.object({ app: z.string(), location: z.string() }),
  })
  .openapi('ChangeRequest');

export const changeRequestResultSchema = (result: 'merge' | 'update') =>
  z
    .object({ revision: z.string(), result: z.literal(result) })
    .openapi(result === 'merge' ? 'ChangeRequestMergeResult' : 'ChangeRequestUpdateResult');

/** `space` is the change request's own space, read in the same request (for `outdated`). */
export function presentChangeRequest(
  details: ChangeRequestDetails,
  space: Space,
  urls: Urls,
): Presented<typeof changeRequestSchema> {
  const { changeRequest: cr, createdBy, comments } = details;
  return {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    createdBy: presentUser(createdBy, urls),
    createdAt: iso(cr.createdAt),
    updatedAt: iso(cr.updatedAt),
    space: space.id,
    revision: cr.revisionId,
    revisionInitial: cr.revisionInitialId,
    revisionMergedAncestor: cr.revisionMergedAncestorId,
    revisionMerged: cr.revisionMergedId,
    comments,
    outdated: isOutdated(cr, space),
    urls: {
      app: urls.app(`/o/${space.organizationId}/s/${space.id}/~/changes/${cr.number}`),
      location: urls.api(`/spaces/${space.id}/change-requests/${cr.id}`),
    },
  };
}
