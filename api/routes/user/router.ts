/** The caller: who am I, and my API tokens (extensions: GitBook has no such operations). */
import { issueUserToken, revokeById } from '../../../domain/auth/tokens';
import { notFound } from '../../../domain/errors';
import { findVisibleUser, updateOwnProfile } from '../../../domain/users/users';
import { User } from '../../../entities/User';
import { inTransaction } from '../../../platform/db/transactions';
import type { ApiBuilder } from '../../operation';
import { apiTokenSchema, presentApiToken } from '../../presenters/token';
import { Urls } from '../../presenters/urls';
import { presentUser, userSchema } from '../../presenters/user';
import { issueTokenBody, tokenIdParams, updateUserBody, userIdParams } from './schema';

export function userRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  api.op(
    {
      method: 'get',
      path: '/v1/user',
      operationId: 'getAuthenticatedUser',
      description:
        'Returns the user the bearer token belongs to. Any authenticated caller; a quick way to check a token.',
      tags: ['users'],
      extension: true,
      summary: 'Get the authenticated user',
      responses: { 200: { description: 'the caller', schema: userSchema } },
    },
    async ({ caller }) => {
      const user = await ds.manager.findOneBy(User, { id: caller.userId });
      if (!user) throw notFound('user');
      return { status: 200, body: presentUser(user, urls) };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/users/{userId}',
      operationId: 'getUser',
      description:
        "Returns a user: the caller, or someone who shares an organization with them (both memberships enabled). Anyone else is a 404, so an id says nothing about users outside the caller's organizations.",
      tags: ['users'],
      extension: true,
      summary: 'Get a user who shares an organization with the caller (the target of every user `urls.location`)',
      params: userIdParams,
      responses: { 200: { description: 'the user', schema: userSchema } },
    },
    async ({ params, caller }) => {
      const user = await findVisibleUser(ds.manager, caller.userId, params.userId);
      if (!user) throw notFound('user');
      return { status: 200, body: presentUser(user, urls) };
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/users/{userId}',
      operationId: 'updateUser',
      extension: true,
      description:
        "Changes the caller's own display name or photo URL. Someone the caller cannot see (no shared organization) is a 404, as for a read; anyone else they can see is a 403. An integration's token has no user: 403.",
      tags: ['users'],
      summary: "Update the caller's own profile (display name, photo URL)",
      userOnly: true,
      params: userIdParams,
      body: updateUserBody,
      responses: { 200: { description: 'the user, updated', schema: userSchema } },
    },
    async ({ params, body, caller }) => {
      const user = await inTransaction(api.deps, (db) => updateOwnProfile(db, caller.userId, params.userId, body));
      return { status: 200, body: presentUser(user, urls) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/user/tokens',
      operationId: 'issueApiToken',
      secretInAnswer: true,
      description:
        "Creates a personal API token for the caller and answers its secret in `token`, the only time it is shown. A user holds at most a configured number of live tokens (100 by default; 409 beyond). A user's own token only: an integration's token gets a 403.",
      tags: ['users'],
      extension: true,
      userOnly: true,
      summary:
        'Issue a new API token for the caller; the secret is shown only in this answer. A user holds at most a configured number of live tokens, 100 by default (409 beyond)',
      body: issueTokenBody,
      responses: { 201: { description: 'issued', schema: apiTokenSchema, noLocation: true } },
    },
    async ({ body, caller }) => {
      const expiresAt = body.expiresInSeconds ? new Date(Date.now() + body.expiresInSeconds * 1000) : null;
      const { token, secret } = await inTransaction(ds, (db) =>
        issueUserToken(db, caller.userId, body.label ?? 'api', expiresAt, config.maxLiveTokensPerUser),
      );
      return { status: 201, body: presentApiToken(token, secret) };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/user/tokens/{tokenId}',
      operationId: 'revokeApiToken',
      description:
        "Revokes one of the caller's own tokens, the one making the request included; it stops working at once. A token that is not the caller's or is already revoked answers 204 as well. A user's own token only.",
      tags: ['users'],
      extension: true,
      userOnly: true,
      summary: "Revoke one of the caller's API tokens (the current one included)",
      params: tokenIdParams,
      responses: { 204: { description: 'revoked, or no such live token of the caller' } },
    },
    async ({ params, caller }) => {
      await inTransaction(ds, (db) => revokeById(db, caller.userId, params.tokenId));
      return { status: 204 };
    },
  );
}
