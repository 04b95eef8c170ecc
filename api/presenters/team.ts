import { z } from 'zod';
import { permissionsOf, TeamPermissions } from '../../domain/access/authorize';
import type { AccessContext } from '../../domain/access/context';
import { TeamCounters, teamCounters } from '../../domain/teams/counters';
import type { Team } from '../../entities/Team';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, timestamp } from './common';

export const teamSchema = z
  .object({
    object: z.literal('team').openapi({ description: 'always `team`' }),
    id: z.string().openapi({ description: 'id of the team' }),
    title: z.string().openapi({ description: 'name of the team, unique in its organization (case-insensitive)' }),
    members: z.number().int().openapi({ description: 'how many members of the organization belong to the team' }),
    spaces: z.number().int().openapi({
      description: 'how many spaces the team reaches through its roles on spaces and on the collections holding them',
    }),
    createdAt: timestamp.openapi({ description: 'when the team was created (ISO 8601 date-time)' }),
    permissions: z
      .object({
        admin: z.boolean().openapi({
          description:
            'the caller may rename or delete the team and manage its members (team owner or organization admin)',
        }),
        view: z.boolean().openapi({ description: 'the caller may see the team and its members' }),
      })
      .openapi({ description: 'what the caller may do with the team' }),
  })
  .openapi('Team', { description: 'A named group of members of an organization, given roles on content together.' });

export const teamRoleSchema = z
  .enum(['owner', 'member'])
  .openapi({ description: 'owner: can manage team members; member: belongs to the team' });

/** An item of a member's team list. */
export const memberTeamSchema = z
  .object({
    team: teamSchema,
    member: z.object({ role: teamRoleSchema }).openapi({ description: "the member's place in this team" }),
  })
  .openapi('MemberTeam', { description: 'A team a member belongs to, with their role in it.' });

export type TeamJson = Presented<typeof teamSchema>;

export function presentTeam(team: Team, counters: TeamCounters, permissions: TeamPermissions): TeamJson {
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: counters.members,
    spaces: counters.spaces,
    createdAt: iso(team.createdAt),
    permissions: { admin: permissions.admin, view: permissions.view },
  };
}

/** Presents teams for the caller: counters computed for the whole list at once, permissions by the access function. */
export async function presentTeams(access: AccessContext, teams: Team[]): Promise<TeamJson[]> {
  const counters = await teamCounters(access.db, teams);
  const items: TeamJson[] = [];
  for (const team of teams)
    items.push(presentTeam(team, counters.get(team.id)!, await permissionsOf(access, { kind: 'team', team })));
  return items;
}
