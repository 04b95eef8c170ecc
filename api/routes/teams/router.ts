/** Teams of an organization and their members. */
import { authorize, permissionsOf } from '../../../domain/access/authorize';
import { notFound } from '../../../domain/errors';
import { membersAmong } from '../../../domain/members/members';
import {
  changeTeamMembers,
  putTeamMember,
  removeTeamMember,
  teamMembersQuery,
} from '../../../domain/teams/team-members';
import { deleteTeam, findTeam, putTeam, renameTeam, teamsQuery } from '../../../domain/teams/teams';
import { inTransaction } from '../../../platform/db/transactions';
import { loadOrganization, loadTeam } from '../../loaders';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { presentMembers, teamMemberSchema } from '../../presenters/member';
import { presentTeams, teamSchema } from '../../presenters/team';
import { Urls } from '../../presenters/urls';
import {
  listTeamMembersQuery,
  listTeamsQuery,
  organizationIdParams,
  patchTeamBody,
  putTeamBody,
  putTeamMemberBody,
  putTeamMembersBody,
  teamMemberParams,
  teamParams,
  teamSortKeys,
} from './schema';

export function teamRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/teams',
      operationId: 'listTeams',
      description:
        'Lists the teams of an organization, newest first; `owner` keeps those a given member can manage and `title` filters by name. Needs `listTeams`: any member with an organization role (not a guest).',
      tags: ['teams'],
      summary: 'List the teams of an organization',
      params: organizationIdParams,
      query: listTeamsQuery,
      responses: { 200: { description: 'teams', schema: listSchema(teamSchema) } },
    },
    async ({ params, query, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'listTeams');
      const page = await paginate(
        await teamsQuery(ds.manager, organization.id, { manageableBy: query.owner, title: query.title }),
        teamSortKeys,
        {
          limit: query.limit,
          page: query.page,
          scope: JSON.stringify(['teams', organization.id, query.owner ?? null, query.title ?? null]),
        },
        config.cursorSecret,
      );
      return { status: 200, body: presentList(page, await presentTeams(access, page.items)) };
    },
  );

  api.op(
    {
      method: 'put',
      path: '/v1/orgs/{organizationId}/teams',
      operationId: 'putTeam',
      description:
        'Creates a team with this title (201), or, when a team with the same title exists (case-insensitive), replaces its member list with `members` (200; those who stay keep their team role). Needs `admin` on the organization (`ownTeam`); the caller is not added to the team.',
      tags: ['teams'],
      summary: 'Create a team, or replace the members of the team with this title (case-insensitive)',
      params: organizationIdParams,
      body: putTeamBody,
      responses: {
        200: { description: 'a team with this title existed; its members were replaced', schema: teamSchema },
        201: { description: 'created', schema: teamSchema },
      },
    },
    async ({ params, body, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'ownTeam');
      const { team, created } = await inTransaction(ds, (db) => putTeam(db, organization.id, body.title, body.members));
      const [presented] = await presentTeams(access, [team]);
      if (!created) return { status: 200, body: presented };
      return {
        status: 201,
        headers: { Location: urls.api(`/orgs/${organization.id}/teams/${team.id}`) },
        body: presented,
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/teams/{teamId}',
      operationId: 'getTeam',
      description:
        "Returns one team with its counters and the caller's permissions on it. Organization admins and members with a role see every team; a guest sees only the teams they belong to.",
      tags: ['teams'],
      summary: 'Get a team',
      params: teamParams,
      responses: { 200: { description: 'team', schema: teamSchema } },
    },
    async ({ params, access }) => {
      const team = await loadTeam(access, params.organizationId, params.teamId);
      await authorize(access, { kind: 'team', team }, 'view');
      const [body] = await presentTeams(access, [team]);
      return { status: 200, body };
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/orgs/{organizationId}/teams/{teamId}',
      operationId: 'updateTeam',
      description:
        'Renames a team; a title another team of the organization has is a 409. Needs `admin` on the team: an organization admin or an `owner` of the team.',
      tags: ['teams'],
      summary: 'Rename a team (409 when another team has the title)',
      params: teamParams,
      body: patchTeamBody,
      responses: { 200: { description: 'team', schema: teamSchema } },
    },
    async ({ params, body, access }) => {
      const team = await loadTeam(access, params.organizationId, params.teamId);
      await authorize(access, { kind: 'team', team }, 'admin');
      const renamed = await inTransaction(ds, (db) => renameTeam(db, team, body.title));
      const [presented] = await presentTeams(access, [renamed]);
      return { status: 200, body: presented };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/orgs/{organizationId}/teams/{teamId}',
      operationId: 'deleteTeam',
      description:
        'Deletes a team with its memberships and the roles it was given on content, and removes it as default team of the SAML providers. Needs `admin` on the team (an organization admin or a team `owner`); a team that does not exist answers 204 to an organization admin.',
      tags: ['teams'],
      summary: 'Delete a team with its memberships and content grants',
      params: teamParams,
      responses: { 204: { description: 'deleted, or there was no such team' } },
    },
    async ({ params, access }) => {
      const team = await findTeam(ds.manager, params.organizationId, params.teamId);
      if (team) await authorize(access, { kind: 'team', team }, 'admin');
      else {
        // A missing team answers 204 only to those who could have deleted any team. Whoever could not
        // see the teams of the organization gets the 404 of a team they cannot see: it tells them
        // neither whether the team nor whether the organization exists.
        const organization = await loadOrganization(access, params.organizationId, 'team');
        if (!(await permissionsOf(access, { kind: 'organization', organization })).listTeams) throw notFound('team');
        await authorize(access, { kind: 'organization', organization }, 'ownTeam');
      }
      await inTransaction(ds, (db) => deleteTeam(db, params.organizationId, params.teamId));
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/teams/{teamId}/members',
      operationId: 'listTeamMembers',
      description:
        'Lists the members of a team in the order they joined, each with their organization membership and team role. Needs `view` on the team.',
      tags: ['teams'],
      summary: 'List the members of a team',
      params: teamParams,
      query: listTeamMembersQuery,
      responses: { 200: { description: 'team members', schema: listSchema(teamMemberSchema) } },
    },
    async ({ params, query, access }) => {
      // the team first: an outsider gets "team not found" whether or not the organization exists
      const team = await loadTeam(access, params.organizationId, params.teamId);
      await authorize(access, { kind: 'team', team }, 'view');
      const organization = await loadOrganization(access, team.organizationId);
      const page = await paginate(
        teamMembersQuery(ds.manager, team),
        [
          { column: 'tm.addedAt', direction: 'ASC', value: (tm) => tm.addedAt },
          { column: 'tm.userId', direction: 'ASC', value: (tm) => tm.userId },
        ],
        { limit: query.limit, page: query.page, scope: JSON.stringify(['team-members', team.id]) },
        config.cursorSecret,
      );
      const members = await membersAmong(
        ds.manager,
        organization.id,
        page.items.map((tm) => tm.userId),
      );
      const presented = new Map(
        (await presentMembers(ds.manager, organization.id, members, urls)).map((m) => [m.id, m]),
      );
      const { listMembers } = await permissionsOf(access, { kind: 'organization', organization });
      const items = page.items.map((tm) => ({
        organization: presented.get(tm.userId)!,
        team: { role: tm.role },
        permissions: { view: listMembers },
      }));
      return { status: 200, body: presentList(page, items) };
    },
  );

  api.op(
    {
      method: 'put',
      path: '/v1/orgs/{organizationId}/teams/{teamId}/members',
      operationId: 'updateTeamMembers',
      description:
        'Adds, removes and sets the team role of members in one request, naming users by id or e-mail; a user both added and removed ends up removed. Each user must be a member (or guest) of the organization (400 otherwise). Needs `admin` on the team: an organization admin or a team `owner`.',
      tags: ['teams'],
      summary: 'Add, remove and change the role of team members in one go (a user both added and removed is removed)',
      params: teamParams,
      body: putTeamMembersBody,
      responses: { 204: { description: 'applied' } },
    },
    async ({ params, body, access }) => {
      const team = await loadTeam(access, params.organizationId, params.teamId);
      await authorize(access, { kind: 'team', team }, 'admin');
      await inTransaction(ds, (db) => changeTeamMembers(db, team, body));
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'put',
      path: '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
      operationId: 'putTeamMember',
      description:
        'Adds a member of the organization to the team with `role` (default `member`), or changes their role if they are in it already. Needs `admin` on the team: an organization admin or a team `owner`; a user who is not a member of the organization is a 400.',
      tags: ['teams'],
      summary: 'Add a member to a team, or set their team role (default member)',
      params: teamMemberParams,
      body: putTeamMemberBody,
      responses: { 204: { description: 'added or updated' } },
    },
    async ({ params, body, access }) => {
      const team = await loadTeam(access, params.organizationId, params.teamId);
      await authorize(access, { kind: 'team', team }, 'admin');
      await inTransaction(ds, (db) => putTeamMember(db, team, params.userId, body.role));
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
      operationId: 'removeTeamMember',
      description:
        'Takes a user out of the team; the user stays a member of the organization. Needs `admin` on the team (an organization admin or a team `owner`); a user not in the team answers 204.',
      tags: ['teams'],
      summary: 'Remove a member from a team',
      params: teamMemberParams,
      responses: { 204: { description: 'removed, or was not in the team' } },
    },
    async ({ params, access }) => {
      const team = await loadTeam(access, params.organizationId, params.teamId);
      await authorize(access, { kind: 'team', team }, 'admin');
      await inTransaction(ds, (db) => removeTeamMember(db, team.id, params.userId));
      return { status: 204 };
    },
  );
}
