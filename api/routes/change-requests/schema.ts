import { z } from 'zod';
import { CHANGE_REQUEST_ORDERS } from '../../../domain/content/change-request-queries';
import { CHANGE_REQUEST_STATUSES } from '../../presenters/change-request';
import { paginationQuery } from '../../query';
import { pathId, resourceId, text } from '../../schemas';
import { documentAsMarkdown } from '../comments/schema';
import { spaceIdParams } from '../spaces/schema';

export const changeRequestIdParams = {
  ...spaceIdParams,
  changeRequestId: pathId('change request').openapi({
    description: 'the change request id or its number in the space',
  }),
};

const subject = text({ max: 100 }).openapi({ description: 'short title of the change, at most 100 characters' });
/** `merged` is reached only by merging. */
const writableStatus = z.enum(['draft', 'open', 'archived']).openapi({
  description: 'draft, open or archived (an archived one takes no edits and cannot be merged); merged only by merging',
});

export const listChangeRequestsQuery = {
  ...paginationQuery,
  status: z.enum(CHANGE_REQUEST_STATUSES).optional().openapi({ description: 'default open' }),
  contributor: resourceId
    .optional()
    .openapi({ description: 'a user id: change requests they created or wrote a revision of' }),
  creator: resourceId.optional().openapi({ description: 'a user id: change requests they created' }),
  orderBy: z
    .enum(CHANGE_REQUEST_ORDERS)
    .optional()
    .openapi({ description: 'newest first by this time; default: by number, newest first' }),
};

export const createChangeRequestBody = z
  .object({
    subject: subject.optional(),
    agentTaskId: text({ min: 1, max: 128 })
      .optional()
      .openapi({ description: 'id of the agent task that opens it, kept with the change request (not returned)' }),
  })
  .strict();

export const patchChangeRequestBody = z
  .object({
    subject: subject.optional(),
    status: writableStatus.optional(),
    description: documentAsMarkdown.optional().openapi({
      description:
        "GitBook 0.202: what the change is about, as GitBook's JSON document (kept as its markdown); an empty document removes it",
    }),
  })
  .strict();
