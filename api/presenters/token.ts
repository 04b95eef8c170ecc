import { z } from 'zod';
import type { ApiToken } from '../../entities/ApiToken';
import { iso, isoOrUndefined, timestamp } from './common';

export const apiTokenSchema = z.object({
  object: z.literal('api-token'),
  id: z.string(),
  label: z.string(),
  createdAt: timestamp,
  expiresAt: timestamp.optional(),
  token: z.string().optional().openapi({ description: 'the secret, returned only when the token is issued' }),
}).openapi('ApiToken');

export function presentApiToken(token: ApiToken, secret?: string): z.infer<typeof apiTokenSchema> {
  const expiresAt = isoOrUndefined(token.expiresAt);
  return {
    object: 'api-token',
    id: token.id,
    label: token.label,
    createdAt: iso(token.createdAt),
    ...(expiresAt ? { expiresAt } : {}),
    ...(secret ? { token: secret } : {}),
  };
}
