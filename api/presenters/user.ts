import { z } from 'zod';
import type { User } from '../../entities/User';
import type { Presented } from '../../platform/wire/to-wire';
import type { Urls } from './urls';

export const userSchema = z
  .object({
    object: z.literal('user'),
    id: z.string(),
    displayName: z.string(),
    email: z.string(),
    photoURL: z.string().optional(),
    urls: z.object({ location: z.string() }),
  })
  .openapi('User');

export function presentUser(user: User, urls: Urls): Presented<typeof userSchema> {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    photoURL: user.photoURL,
    urls: { location: urls.api(`/users/${user.id}`) },
  };
}
