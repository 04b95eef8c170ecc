import { z } from 'zod';
import { ROLES } from '../../../domain/access/roles';
import { roleSchema } from '../../presenters/common';
import { paginationQuery } from '../../query';
import { emailDomain, pathId, text } from '../../schemas';

export const organizationIdParams = { organizationId: pathId('organization') };
export const memberParams = {
  organizationId: pathId('organization'),
  userId: pathId('member').openapi({ description: 'id of the member (their user id)' }),
};
export const emailDomainParams = {
  emailDomain: emailDomain.openapi({ description: 'an e-mail domain, such as `example.com` (case-insensitive)' }),
};

export const listMembersQuery = {
  ...paginationQuery,
  order: z.enum(['asc', 'desc']).default('desc').openapi({ description: 'direction of the `sort`; default `desc`' }),
  role: z
    .enum([...ROLES, 'guest'])
    .optional()
    .openapi({ description: 'only members with this role; guest: members without an organization role' }),
  search: text({ min: 1, max: 256, characters: 'any' })
    .optional()
    .openapi({ description: 'case-insensitive "contains" filter on the user\'s display name and e-mail' }),
  sort: z.enum(['joinedAt', 'lastSeenAt']).default('joinedAt').openapi({
    description: 'order by joining time (default) or last presence; `lastSeenAt` lists only members seen at least once',
  }),
};

export const listMemberTeamsQuery = {
  ...paginationQuery,
  title: text({ min: 1, max: 255, characters: 'any' })
    .optional()
    .openapi({ description: 'case-insensitive "contains" filter on the team title' }),
};

export const patchMemberBody = z
  .object({
    role: roleSchema
      .nullable()
      .optional()
      .openapi({ description: 'null makes the member a guest; omitted: no change' }),
  })
  .strict();

export const pingResponse = z
  .object({
    serviceVisitorClaims: z.string().openapi({
      description: 'a JWT (HS256, one hour) to attach to the user: `sub` the user, `organization`, `role`',
    }),
  })
  .openapi('PingResult', { description: "The answer to a presence ping: the caller's visitor claims, signed." });
