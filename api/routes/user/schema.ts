import { z } from 'zod';
import { pathId, text } from '../../schemas';

export const issueTokenBody = z
  .object({
    label: text({ min: 1, max: 100, trim: true }).optional(),
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(5 * 365 * 24 * 3600)
      .optional(),
  })
  .strict();

export const tokenIdParams = { tokenId: pathId('token') };

export const userIdParams = { userId: pathId('user') };
