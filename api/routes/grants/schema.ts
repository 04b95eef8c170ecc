import { z } from 'zod';
import { roleSchema } from '../../presenters/common';

const id = z.string().min(1).max(64);

export const spaceUserParams = { spaceId: id, userId: id };
export const spaceTeamParams = { spaceId: id, teamId: id };
export const collectionUserParams = { collectionId: id, userId: id };
export const collectionTeamParams = { collectionId: id, teamId: id };

export const putGrantBody = z.object({ role: roleSchema }).strict();
