import { z } from 'zod';
import type { User } from '../../entities/User';
import type { Presented } from '../../platform/wire/to-wire';
import type { Urls } from './urls';

export const userSchema = z
  .object({
    object: z.literal('user').openapi({ description: 'always `user`' }),
    id: z.string().openapi({ description: 'id of the user' }),
    displayName: z.string().openapi({ description: 'name shown for the user' }),
    email: z.string().openapi({ description: "the user's e-mail address" }),
    photoURL: z.string().optional().openapi({ description: "URL of the user's picture; absent when they have none" }),
    urls: z
      .object({ location: z.string().openapi({ description: 'API URL of the user (`GET /v1/users/{userId}`)' }) })
      .openapi({ description: 'where the user is found' }),
  })
  .openapi('User', { description: 'A person with an account: the caller, a member, an author.' });

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
