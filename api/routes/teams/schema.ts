import { z } from 'zod';
import type { Team } from '../../../entities/Team';
import type { SortKey } from '../../middleware/paginate';
import { teamRoleSchema } from '../../presenters/team';
import { paginationQuery } from '../../query';
import { pathId, resourceId, text } from '../../schemas';

const title = text({ min: 1, max: 255, trim: true });
/** a user id, or an e-mail of a user */
const userRef = text({ min: 1, max: 320 });
const MAX_ENTRIES = 1000;

export const organizationIdParams = { organizationId: pathId('organization') };
export const teamParams = { organizationId: pathId('organization'), teamId: pathId('team') };
export const teamMemberParams = {
  organizationId: pathId('organization'),
  teamId: pathId('team'),
  userId: pathId('user'),
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
    add: z.array(userRef).max(MAX_ENTRIES).optional(),
    remove: z.array(userRef).max(MAX_ENTRIES).optional(),
    memberships: z
      .record(userRef, z.object({ role: teamRoleSchema }).strict())
      .refine((m) => Object.keys(m).length <= MAX_ENTRIES, `must have at most ${MAX_ENTRIES} entries`)
      .optional(),
  })
  .strict();

export const putTeamMemberBody = z.object({ role: teamRoleSchema.default('member') }).strict();
