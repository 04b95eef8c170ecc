import { z } from 'zod';
import { pathId } from '../../schemas';

export const issueTokenBody = z
  .object({
    label: z.string().trim().min(1).max(100).optional(),
    expiresInSeconds: z.number().int().min(60).max(5 * 365 * 24 * 3600).optional(),
  })
  .strict();

export const tokenIdParams = { tokenId: pathId('token') };

export const userIdParams = { userId: pathId('user') };
