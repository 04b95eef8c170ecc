import { z } from 'zod';
import type { ApiToken } from '../../entities/ApiToken';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, isoOrNull, timestamp } from './common';

export const apiTokenSchema = z
  .object({
    object: z.literal('api-token').openapi({ description: 'always `api-token`' }),
    id: z.string().openapi({ description: 'id of the token, to revoke it with `DELETE /v1/user/tokens/{tokenId}`' }),
    label: z.string().openapi({ description: 'name given when it was issued (`api` by default)' }),
    createdAt: timestamp.openapi({ description: 'when the token was issued (ISO 8601 date-time)' }),
    expiresAt: timestamp.nullable().openapi({ description: 'null: never expires' }),
    token: z.string().optional().openapi({ description: 'the secret, returned only when the token is issued' }),
  })
  .openapi('ApiToken', {
    description: "One of the caller's personal API tokens, sent as `Authorization: Bearer <token>`.",
  });

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
