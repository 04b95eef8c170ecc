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
    object: z.literal('member').openapi({ description: 'always `member`' }),
    id: z.string().openapi({ description: 'id of the member: the id of their user' }),
    role: roleSchema.nullable().openapi({ description: 'organization role; null for guests' }),
    user: userSchema,
    disabled: z.boolean().openapi({ description: 'true when the membership is disabled: it grants no access' }),
    joinedAt: timestamp.openapi({ description: 'when the user joined the organization (ISO 8601 date-time)' }),
    lastSeenAt: timestamp
      .optional()
      .openapi({ description: 'last presence ping in the organization (ISO 8601 date-time); absent if never seen' }),
    sso: z.boolean().openapi({ description: "true when the member signs in through the organization's SSO" }),
    spaces: z
      .number()
      .int()
      .openapi({ description: 'how many non-deleted spaces of the organization the member can access' }),
    teams: z.number().int().openapi({ description: 'how many teams of the organization the member belongs to' }),
    sites: z.number().int().openapi({ description: 'GitBook 0.202: sites of the organization the member can see' }),
  })
  .openapi('Member', { description: "A user's membership of an organization, with their role there." });

/** An item of a team's member list. */
export const teamMemberSchema = z
  .object({
    organization: memberSchema,
    team: z.object({ role: teamRoleSchema }).openapi({ description: "the member's place in the team" }),
    permissions: z
      .object({
        view: z.boolean().openapi({ description: "the caller may see the member's organization details" }),
      })
      .openapi({ description: 'what the caller may do with this member' }),
  })
  .openapi('TeamMemberItem', { description: 'A member of a team: their organization membership and their team role.' });

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
