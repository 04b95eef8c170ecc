import { z } from 'zod';
import type { ApiToken } from '../../entities/ApiToken';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, isoOrNull, timestamp } from './common';

export const apiTokenSchema = z
  .object({
    object: z.literal('api-token'),
    id: z.string(),
    label: z.string(),
    createdAt: timestamp,
    expiresAt: timestamp.nullable().openapi({ description: 'null: never expires' }),
    token: z.string().optional().openapi({ description: 'the secret, returned only when the token is issued' }),
  })
  .openapi('ApiToken');

export function presentApiToken(token: ApiToken, secret?: string): Presented<typeof apiTokenSchema> {
  return {
    object: 'api-token',
    id: token.id,
    label: token.label,
    createdAt: iso(token.createdAt),
    expiresAt: isoOrNull(token.expiresAt),
    ...(secret ? { token: secret } : {}),
  };
}

/** GitBook's APITemporaryToken: an installation token minted by its integration. */
export const temporaryTokenSchema = z
  .object({
    token: z.string().openapi({ description: 'Temporary access token to authenticate with the API' }),
  })
  .openapi('APITemporaryToken');
