import { z } from 'zod';
import type { Team } from '../../../entities/Team';
import type { SortKey } from '../../middleware/paginate';
import { teamRoleSchema } from '../../presenters/team';
import { paginationQuery } from '../../query';
import { pathId, resourceId, text } from '../../schemas';

const title = text({ min: 1, max: 255, trim: true }).openapi({
  description: 'name of the team, 1 to 255 characters; unique in the organization (case-insensitive)',
});
/** a user id, or an e-mail of a user */
const userRef = text({ min: 1, max: 320 });
const MAX_ENTRIES = 1000;

export const organizationIdParams = { organizationId: pathId('organization') };
export const teamParams = { organizationId: pathId('organization'), teamId: pathId('team') };
export const teamMemberParams = {
  organizationId: pathId('organization'),
  teamId: pathId('team'),
  userId: pathId('user').openapi({ description: 'id of a user who is a member (or guest) of the organization' }),
};

/** Order of every team list (newest first), shared with the member's teams list. */
export const teamSortKeys: SortKey<Team>[] = [
  { column: 't.createdAt', direction: 'DESC', value: (t) => t.createdAt },
  { column: 't.id', direction: 'DESC', value: (t) => t.id },
];

export const listTeamsQuery = {
  ...paginationQuery,
  owner: resourceId.optional().openapi({
    description: 'a member id: only teams they can manage (teams they own; every team for an organization admin)',
  }),
  title: text({ min: 1, max: 255, characters: 'any' })
    .optional()
    .openapi({ description: 'case-insensitive "contains" filter on the title' }),
};

export const listTeamMembersQuery = { ...paginationQuery };

export const putTeamBody = z
  .object({
    title,
    members: z
      .array(resourceId)
      .max(MAX_ENTRIES)
      .optional()
      .openapi({ description: 'user ids; replaces the member list of an existing team' }),
  })
  .strict();

export const patchTeamBody = z.object({ title }).strict();

export const putTeamMembersBody = z
  .object({
    add: z
      .array(userRef)
      .max(MAX_ENTRIES)
      .optional()
      .openapi({
        description: `users to add as \`member\`, by user id or e-mail (at most ${MAX_ENTRIES}); those already in keep their role`,
      }),
    remove: z
      .array(userRef)
      .max(MAX_ENTRIES)
      .optional()
      .openapi({
        description: `users to remove, by user id or e-mail (at most ${MAX_ENTRIES}); wins over \`add\` and \`memberships\``,
      }),
    memberships: z
      .record(userRef, z.object({ role: teamRoleSchema }).strict())
      .refine((m) => Object.keys(m).length <= MAX_ENTRIES, `must have at most ${MAX_ENTRIES} entries`)
      .optional()
      .openapi({
        description: `team role by user id or e-mail (at most ${MAX_ENTRIES} entries); adds the user when not in the team yet`,
      }),
  })
  .strict();

export const putTeamMemberBody = z
  .object({ role: teamRoleSchema.default('member').openapi({ description: 'team role; default `member`' }) })
  .strict();
