/** Inviting people to an organization by e-mail, and the link of the invitation mail that issues a first token. */
import { authorize } from '../../../domain/access/authorize';
import { notFound } from '../../../domain/errors';
import { redeemFirstTokenLink } from '../../../domain/invites/first-token';
import { inviteUsersToOrganization } from '../../../domain/invites/invites';
import { User } from '../../../entities/User';
import { inTransaction } from '../../../platform/db/transactions';
import { loadOrganization } from '../../loaders';
import type { ApiBuilder } from '../../operation';
import { apiTokenSchema, presentApiToken } from '../../presenters/token';
import { linkInviteRoutes } from './link-invites';
import {
  firstTokenResponse,
  inviteTokenParams,
  inviteUsersBody,
  inviteUsersResponse,
  organizationIdParams,
} from './schema';

export function inviteRoutes(api: ApiBuilder): void {
  const { config } = api.deps;
  linkInviteRoutes(api);

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/invites',
      operationId: 'inviteUsersToOrganization',
      extension: true,
      description:
        'Adds people to the organization by e-mail address: a new address becomes a user, and each person not yet a member joins with their role (`role` for the addresses given without one; guests by default). Someone already a member is left as they are. Each person added is mailed an invitation whose link issues their first API token once (`POST /v1/invite-tokens/{inviteToken}`); `mailed` is false when no SMTP server is configured. Needs `admin` on the organization, so an invitation never grants more than its creator holds.',
      tags: ['members'],
      summary: 'Invite people to an organization by e-mail',
      params: organizationIdParams,
      body: inviteUsersBody,
      responses: { 200: { description: 'the users added', schema: inviteUsersResponse } },
    },
    async ({ params, body, caller, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'admin');
      const emails = body.emails.map((e) =>
        typeof e === 'string' ? { email: e, role: body.role ?? null } : { email: e.email, role: e.role },
      );
      const result = await inTransaction(api.deps, async (db) => {
        const inviter = await db.findOneBy(User, { id: caller.userId });
        if (!inviter) throw notFound('user');
        return inviteUsersToOrganization(db, config, organization, inviter, { emails, sso: body.sso ?? false });
      });
      return { status: 200, body: { users: result.users, invited: result.users.length, mailed: result.mailed } };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/invite-tokens/{inviteToken}',
      operationId: 'redeemInviteToken',
      secretInAnswer: true,
      anonymous: true,
      extension: true,
      description:
        "Issues the invited person's first API token, once: the link of their invitation mail. A used, expired (`INVITE_TOKEN_TTL_SECONDS`, 7 days by default) or unknown link, or one whose person has left the organization, answers 404. No bearer token is needed: the link is the credential, and it is never written to the logs.",
      tags: ['users'],
      summary: "Issue an invited person's first API token with the link of their invitation",
      params: inviteTokenParams,
      responses: {
        201: {
          description: 'issued: the secret is shown only in this answer',
          schema: apiTokenSchema.extend(firstTokenResponse.shape),
          noLocation: true,
        },
      },
    },
    async ({ params }) => {
      const issued = await inTransaction(api.deps.ds, (db) => redeemFirstTokenLink(db, config, params.inviteToken));
      return {
        status: 201,
        body: {
          ...presentApiToken(issued.token, issued.secret),
          organizationId: issued.organizationId,
          userId: issued.token.userId,
        },
      };
    },
  );
}
