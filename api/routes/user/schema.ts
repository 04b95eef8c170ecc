import { z } from 'zod';
import { httpsUrl, nonEmpty, pathId, text } from '../../schemas';

export const issueTokenBody = z
  .object({
    label: text({ min: 1, max: 100, trim: true })
      .optional()
      .openapi({ description: 'a name to recognise the token by, 1 to 100 characters; default `api`' }),
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(5 * 365 * 24 * 3600)
      .optional()
      .openapi({ description: 'lifetime in seconds, from 60 to 5 years; omitted: the token never expires' }),
  })
  .strict();

export const tokenIdParams = { tokenId: pathId('token') };

export const userIdParams = { userId: pathId('user') };

export const updateUserBody = nonEmpty(
  z
    .object({
      displayName: text({ min: 1, max: 64, trim: true })
        .optional()
        .openapi({ description: 'full name, 1 to 64 characters, trimmed' }),
      photoURL: httpsUrl.optional().openapi({ description: 'https URL of the profile picture' }),
    })
    .strict(),
);
