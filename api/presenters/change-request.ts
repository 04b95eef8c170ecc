import { z } from 'zod';
import type { ChangeRequestDetails } from '../../domain/content/change-request-queries';
import { isOutdated } from '../../domain/content/change-requests';
import { markdownToDocument } from '../../domain/content/document';
import type { ChangeRequestStatus } from '../../entities/ChangeRequest';
import type { Space } from '../../entities/Space';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, timestamp } from './common';
import { documentSchema } from './document';
import { presentDocument } from './gitbook-document';
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
    object: z.literal('change-request').openapi({ description: 'always `change-request`' }),
    id: z.string().openapi({ description: 'id of the change request' }),
    number: z
      .number()
      .int()
      .openapi({ description: 'its number in the space, from 1 up; accepted wherever the id is in a path' }),
    status: z
      .enum(CHANGE_REQUEST_STATUSES)
      .openapi({ description: 'draft, open or archived as set; merged once merged, after which it cannot change' }),
    subject: z.string().openapi({ description: 'short title of the change (at most 100 characters; may be empty)' }),
    description: documentSchema
      .optional()
      .openapi({ description: 'GitBook 0.202: what the change is about, as a document; absent when none is set' }),
    createdBy: userSchema,
    createdAt: timestamp.openapi({ description: 'when it was opened (ISO 8601 date-time)' }),
    updatedAt: timestamp.openapi({
      description: 'when it, or its content, last changed (ISO 8601 date-time)',
    }),
    space: z.string().openapi({ description: 'id of the space (GitBook 0.202)' }),
    revision: z.string().openapi({ description: 'id of its current revision (the head of the change request)' }),
    revisionInitial: z.string().openapi({ description: "id of the space's revision it was opened from" }),
    revisionMergedAncestor: z
      .string()
      .optional()
      .openapi({ description: 'absent until the change request is updated from the main content' }),
    revisionMerged: z.string().optional().openapi({ description: 'absent until merged' }),
    comments: z.number().int().openapi({ description: 'number of its open (unresolved) comments' }),
    outdated: z.boolean().openapi({
      description: 'the space has moved on since it was opened or last updated from the space; never for a merged one',
    }),
    urls: z
      .object({
        app: z.string().openapi({ description: 'URL of the change request in the web app' }),
        location: z.string().openapi({ description: 'URL of the change request in this API' }),
      })
      .openapi({ description: 'where the change request can be opened' }),
  })
  .openapi('ChangeRequest', {
    description:
      "A change request: a branch of a space's content, edited on its own and merged into the space when ready",
  });

export const changeRequestResultSchema = (result: 'merge' | 'update') =>
  z
    .object({
      revision: z.string().openapi({
        description:
          result === 'merge'
            ? "id of the space's new revision, made by the merge"
            : "id of the change request's head revision after the update (unchanged when there was nothing to pull)",
      }),
      result: z.literal(result).openapi({ description: `always \`${result}\`` }),
    })
    .openapi(result === 'merge' ? 'ChangeRequestMergeResult' : 'ChangeRequestUpdateResult', {
      description:
        result === 'merge'
          ? 'The outcome of merging a change request into its space'
          : "The outcome of pulling the space's content into a change request",
    });

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
    description: cr.description ? presentDocument(markdownToDocument(cr.description)) : null,
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
