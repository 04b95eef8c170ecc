import { z } from 'zod';
import { describeMembers, MemberDetails } from '../../domain/members/details';
import type { Member } from '../../entities/Member';
import type { Db } from '../../platform/db/transactions';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, isoOrNull, roleSchema, timestamp } from './common';
import { teamRoleSchema } from './team';
import type { Urls } from './urls';
import { presentUser, userSchema } from './user';

export const memberSchema = z
  .object({
    object: z.literal('member'),
    id: z.string(),
    role: roleSchema.nullable().openapi({ description: 'null for guests' }),
    user: userSchema,
    disabled: z.boolean(),
    joinedAt: timestamp,
    lastSeenAt: timestamp.optional(),
    sso: z.boolean(),
    spaces: z.number().int(),
    teams: z.number().int(),
    sites: z.number().int().openapi({ description: 'GitBook 0.202: sites of the organization the member can see' }),
  })
  .openapi('Member');

/** An item of a team's member list. */
export const teamMemberSchema = z
  .object({
    organization: memberSchema,
    team: z.object({ role: teamRoleSchema }),
    permissions: z.object({ view: z.boolean() }),
  })
  .openapi('TeamMemberItem');

export type MemberJson = Presented<typeof memberSchema>;

export function presentMember({ member, user, spaces, teams, sites }: MemberDetails, urls: Urls): MemberJson {
  return {
    object: 'member',
    id: member.userId,
    role: member.role,
    user: presentUser(user, urls),
    disabled: member.disabled,
    joinedAt: iso(member.joinedAt),
    lastSeenAt: isoOrNull(member.lastSeenAt),
    sso: member.sso,
    spaces,
    teams,
    sites,
  };
}

/** Presents members of one organization, their details gathered for the whole list at once. */
export async function presentMembers(
  db: Db,
  organizationId: string,
  members: Member[],
  urls: Urls,
): Promise<MemberJson[]> {
  return (await describeMembers(db, organizationId, members)).map((d) => presentMember(d, urls));
}
