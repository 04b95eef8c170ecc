import { z } from 'zod';
import { roleSchema } from '../../presenters/common';
import { pathId } from '../../schemas';

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
