import { z } from 'zod';
import { permissionsOf, TeamPermissions } from '../../domain/access/authorize';
import type { AccessContext } from '../../domain/access/context';
import { TeamCounters, teamCounters } from '../../domain/teams/counters';
import type { Team } from '../../entities/Team';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, timestamp } from './common';

export const teamSchema = z
  .object({
    object: z.literal('team'),
    id: z.string(),
    title: z.string(),
    members: z.number().int(),
    spaces: z.number().int(),
    createdAt: timestamp,
    permissions: z.object({ admin: z.boolean(), view: z.boolean() }),
  })
  .openapi('Team');

export const teamRoleSchema = z
  .enum(['owner', 'member'])
  .openapi({ description: 'owner: can manage team members; member: belongs to the team' });

/** An item of a member's team list. */
export const memberTeamSchema = z
  .object({ team: teamSchema, member: z.object({ role: teamRoleSchema }) })
  .openapi('MemberTeam');

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
