import { z } from 'zod';
import { resourceId } from '../../schemas';
import { roleSchema } from '../../presenters/common';


export const spaceUserParams = { spaceId: resourceId, userId: resourceId };
export const spaceTeamParams = { spaceId: resourceId, teamId: resourceId };
export const collectionUserParams = { collectionId: resourceId, userId: resourceId };
export const collectionTeamParams = { collectionId: resourceId, teamId: resourceId };

export const putGrantBody = z.object({ role: roleSchema }).strict();
