import { z } from 'zod';
import { ROLES } from '../../../domain/access/roles';
import { roleSchema } from '../../presenters/common';
import { paginationQuery } from '../../query';
import { emailDomain, pathId, text } from '../../schemas';

export const organizationIdParams = { organizationId: pathId('organization') };
export const memberParams = { organizationId: pathId('organization'), userId: pathId('member') };
export const linkInviteParams = { organizationId: pathId('organization'), inviteId: pathId('link invite') };
export const emailDomainParams = {
  emailDomain,
};

export const listMembersQuery = {
  ...paginationQuery,
  order: z.enum(['asc', 'desc']).default('desc'),
  role: z
    .enum([...ROLES, 'guest'])
    .optional()
    .openapi({ description: 'only members with this role; guest: members without an organization role' }),
  search: text({ min: 1, max: 256, characters: 'any' }).optional(),
  sort: z.enum(['joinedAt', 'lastSeenAt']).default('joinedAt'),
};

export const listMemberTeamsQuery = {
  ...paginationQuery,
  title: text({ min: 1, max: 255, characters: 'any' }).optional(),
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
  .openapi('PingResult');
