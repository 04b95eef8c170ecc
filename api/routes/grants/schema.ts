import { z } from 'zod';
import { roleSchema } from '../../presenters/common';
import { paginationQuery } from '../../query';
import { atLeastOneOf, pathId, resourceId } from '../../schemas';

export const spaceUserParams = { spaceId: pathId('space'), userId: pathId('user') };
export const spaceTeamParams = { spaceId: pathId('space'), teamId: pathId('team') };
export const collectionUserParams = { collectionId: pathId('collection'), userId: pathId('user') };
export const collectionTeamParams = { collectionId: pathId('collection'), teamId: pathId('team') };

export const putGrantBody = z
  .object({
    role: roleSchema.openapi({
      description:
        'role to give on the content and everything inside it; it can raise, never lower, the role held otherwise',
    }),
  })
  .strict();

/** How many users and teams one invitation names at most. */
const MAX_INVITED = 1000;

export const spaceParams = { spaceId: pathId('space') };
export const collectionParams = { collectionId: pathId('collection') };

export const listGrantsQuery = { ...paginationQuery };

export const aggregateQuery = {
  ...paginationQuery,
  role: roleSchema.optional().openapi({ description: 'only the users who end up with exactly this role' }),
};

export const patchGrantBody = z
  .object({
    role: roleSchema.nullable().optional().openapi({
      description:
        'role to give on the content and everything inside it (it can raise, never lower, the role held otherwise); null takes back the role given there; absent changes nothing',
    }),
  })
  .strict();

const invited = (what: string) =>
  z
    .array(resourceId)
    .min(1)
    .max(MAX_INVITED)
    .optional()
    .openapi({ description: `ids of ${what} of the organization (1 to ${MAX_INVITED})` });

export const inviteBody = atLeastOneOf(
  z
    .object({
      role: roleSchema.nullable().openapi({
        description:
          'role to give each of them on the content and everything inside it, replacing the one given there before; null takes it back',
      }),
      users: invited('users who are members (or guests)'),
      teams: invited('teams'),
    })
    .strict(),
  ['users', 'teams'],
);
