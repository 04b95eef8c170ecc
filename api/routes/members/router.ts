/** Organization members, leaving, SSO marking, presence pings, link invites and e-mail domain discovery. */
import { z } from 'zod';
import { authorize, permissionsOf } from '../../../domain/access/authorize';
import { notFound } from '../../../domain/errors';
import { organizationsClaimingDomain } from '../../../domain/members/email-domains';
import {
  changeMemberRole,
  findMember,
  markSsoMember,
  membersQuery,
  removeMember,
  touchLastSeen,
} from '../../../domain/members/members';
import { signServiceVisitorClaims } from '../../../domain/members/service-visitor-claims';
import { teamRolesOf } from '../../../domain/teams/team-members';
import { teamsOfMemberQuery } from '../../../domain/teams/teams';
import { Member } from '../../../entities/Member';
import type { Organization } from '../../../entities/Organization';
import { User } from '../../../entities/User';
import { inTransaction } from '../../../platform/db/transactions';
import { loadOrganization } from '../../loaders';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { memberSchema, presentMembers } from '../../presenters/member';
import { organizationSchema, presentOrganization } from '../../presenters/organization';
import { memberTeamSchema, presentTeams } from '../../presenters/team';
import { Urls } from '../../presenters/urls';
import { teamSortKeys } from '../teams/schema';
import {
  emailDomainParams,
  listMembersQuery,
  listMemberTeamsQuery,
  memberParams,
  organizationIdParams,
  patchMemberBody,
  pingResponse,
} from './schema';

export function memberRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  const org = (organization: Organization) => ({ kind: 'organization' as const, organization });

  api.op(
    {
      method: 'get',
      path: '/v1/email-domains/{emailDomain}/orgs',
      operationId: 'listOrganizationsForEmailDomain',
      description:
        "Looks up the organizations that claim an e-mail domain in their `emailDomains`, newest first. When the domain is the caller's own, every claiming organization is listed (so a newcomer finds where to join); otherwise only those the caller already belongs to. A user's own token only: an integration's token gets a 403.",
      tags: ['organizations'],
      userOnly: true,
      summary:
        "Organizations claiming an e-mail domain (all of them when it is the caller's own domain, else only the caller's)",
      params: emailDomainParams,
      responses: {
        200: {
          description: 'organizations',
          schema: z.object({
            organizations: z
              .array(organizationSchema)
              .openapi({ description: 'the organizations claiming the domain, newest first' }),
          }),
        },
      },
    },
    async ({ params, caller, access }) => {
      const user = await ds.manager.findOneBy(User, { id: caller.userId });
      if (!user) throw notFound('user');
      const organizations = await organizationsClaimingDomain(ds.manager, params.emailDomain, user);
      const items = [];
      for (const o of organizations) items.push(presentOrganization(o, await permissionsOf(access, org(o)), urls));
      return { status: 200, body: { organizations: items } };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/members',
      operationId: 'listMembers',
      description:
        'Lists the members of an organization, guests and disabled members included, filtered by `role` and `search` and sorted by `sort` and `order`. Needs `listMembers`: any member with an organization role (not a guest).',
      tags: ['members'],
      summary: 'List the members of an organization',
      params: organizationIdParams,
      query: listMembersQuery,
      responses: { 200: { description: 'members', schema: listSchema(memberSchema) } },
    },
    async ({ params, query, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, org(organization), 'listMembers');
      const direction = query.order === 'asc' ? 'ASC' : 'DESC';
      const page = await paginate(
        membersQuery(ds.manager, organization.id, { role: query.role, search: query.search, sort: query.sort }),
        [
          query.sort === 'lastSeenAt'
            ? { column: 'm.lastSeenAt', direction, value: (m: Member) => m.lastSeenAt! }
            : { column: 'm.joinedAt', direction, value: (m: Member) => m.joinedAt },
          { column: 'm.userId', direction, value: (m: Member) => m.userId },
        ],
        {
          limit: query.limit,
          page: query.page,
          scope: JSON.stringify([
            'members',
            organization.id,
            query.sort,
            query.order,
            query.role ?? null,
            query.search ?? null,
          ]),
        },
        config.cursorSecret,
      );
      return {
        status: 200,
        body: presentList(page, await presentMembers(ds.manager, organization.id, page.items, urls)),
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/members/{userId}',
      operationId: 'getMember',
      description:
        'Returns one member of the organization, with their user and counters. Needs `listMembers`: any member with an organization role (not a guest); an unknown member is a 404.',
      tags: ['members'],
      summary: 'Get a member of an organization',
      params: memberParams,
      responses: { 200: { description: 'member', schema: memberSchema } },
    },
    async ({ params, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, org(organization), 'listMembers');
      const member = await findMember(ds.manager, organization.id, params.userId);
      const [body] = await presentMembers(ds.manager, organization.id, [member], urls);
      return { status: 200, body };
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/orgs/{organizationId}/members/{userId}',
      operationId: 'updateMember',
      description:
        "Changes a member's organization role; `null` makes them a guest. Needs `admin` on the organization. Demoting the last enabled admin is refused with a 409.",
      tags: ['members'],
      summary: "Change a member's organization role (null: guest); the last admin cannot be demoted (409)",
      params: memberParams,
      body: patchMemberBody,
      responses: { 200: { description: 'member', schema: memberSchema } },
    },
    async ({ params, body, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, org(organization), 'admin');
      const member = await inTransaction(ds, async (db) => {
        const found = await findMember(db, organization.id, params.userId);
        return body.role === undefined ? found : changeMemberRole(db, found, body.role);
      });
      const [presented] = await presentMembers(ds.manager, organization.id, [member], urls);
      return { status: 200, body: presented };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/orgs/{organizationId}/members/{userId}',
      operationId: 'removeMember',
      description:
        'Removes a member from the organization with their team memberships and the roles given to them on its content. A member may remove themself (leave), guests included; removing someone else needs `admin`. The last enabled admin cannot go (409); a user who is not a member answers 204.',
      tags: ['members'],
      summary:
        'Remove a member (admins), or leave the organization (the member themself); the last admin cannot leave (409)',
      params: memberParams,
      responses: { 204: { description: 'removed, or was not a member' } },
    },
    async ({ params, caller, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      // Anyone may leave; removing someone else takes an admin.
      await authorize(access, org(organization), params.userId === caller.userId ? 'view' : 'admin');
      await inTransaction(ds, (db) => removeMember(db, organization.id, params.userId));
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/ping',
      operationId: 'pingOrganization',
      description:
        "Records that the caller is active in the organization now (their member `lastSeenAt`), and answers a signed JWT of the claims they carry as a visitor of its sites. Any member, guests included; a user's own token only (an integration's token gets a 403).",
      tags: ['members'],
      userOnly: true,
      summary:
        "Record the caller's presence in the organization, and get a JWT of the claims that go with them as a visitor of its sites",
      params: organizationIdParams,
      responses: { 200: { description: 'presence recorded', schema: pingResponse } },
    },
    async ({ params, caller, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, org(organization), 'view');
      await inTransaction(ds, (db) => touchLastSeen(db, organization.id, caller.userId));
      const member = (await access.membership(organization.id))!;
      return {
        status: 200,
        body: {
          serviceVisitorClaims: await signServiceVisitorClaims(config.cursorSecret, config.publicBaseUrl, member),
        },
      };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/members/{userId}/sso',
      operationId: 'setMemberSso',
      description:
        "Marks a member as signing in through the organization's single sign-on (`sso` becomes true). Needs `admin` on the organization.",
      tags: ['members'],
      summary: 'Mark a member as signing in through SSO',
      params: memberParams,
      responses: { 200: { description: 'member', schema: memberSchema } },
    },
    async ({ params, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, org(organization), 'admin');
      const member = await inTransaction(ds, async (db) =>
        markSsoMember(db, await findMember(db, organization.id, params.userId)),
      );
      const [body] = await presentMembers(ds.manager, organization.id, [member], urls);
      return { status: 200, body };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/members/{userId}/teams',
      operationId: 'listMemberTeams',
      description:
        "Lists the teams of the organization that a member belongs to, newest first, with the member's role in each; `title` filters them. Needs `listMembers`: any member with an organization role (not a guest).",
      tags: ['members'],
      summary: 'List the teams a member belongs to',
      params: memberParams,
      query: listMemberTeamsQuery,
      responses: { 200: { description: 'teams with the member role', schema: listSchema(memberTeamSchema) } },
    },
    async ({ params, query, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, org(organization), 'listMembers');
      const member = await findMember(ds.manager, organization.id, params.userId);
      const page = await paginate(
        teamsOfMemberQuery(ds.manager, organization.id, member.userId, query.title),
        teamSortKeys,
        {
          limit: query.limit,
          page: query.page,
          scope: JSON.stringify(['member-teams', organization.id, member.userId, query.title ?? null]),
        },
        config.cursorSecret,
      );
      const roles = await teamRolesOf(
        ds.manager,
        member.userId,
        page.items.map((t) => t.id),
      );
      const teams = await presentTeams(access, page.items);
      const items = teams.map((team) => ({ team, member: { role: roles.get(team.id)! } }));
      return { status: 200, body: presentList(page, items) };
    },
  );
}
