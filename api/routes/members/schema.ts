import { z } from 'zod';
import { emailDomain, pathId, text } from '../../schemas';
import { roleSchema } from '../../presenters/common';
import { paginationQuery } from '../../query';


export const organizationIdParams = { organizationId: pathId('organization') };
export const memberParams = { organizationId: pathId('organization'), userId: pathId('member') };
export const linkInviteParams = { organizationId: pathId('organization'), inviteId: pathId('link invite') };
export const emailDomainParams = {
  emailDomain,
};

export const listMembersQuery = {
  ...paginationQuery,
  order: z.enum(['asc', 'desc']).default('desc'),
  role: roleSchema.optional(),
  search: text({ min: 1, max: 256, characters: 'any' }).optional(),
  sort: z.enum(['joinedAt', 'lastSeenAt']).default('joinedAt'),
};

export const listMemberTeamsQuery = {
  ...paginationQuery,
  title: text({ min: 1, max: 255, characters: 'any' }).optional(),
};

export const patchMemberBody = z
  .object({ role: roleSchema.nullable().openapi({ description: 'null makes the member a guest' }) })
  .strict();

export const pingResponse = z
  .object({
    serviceVisitorClaims: z.string().optional().openapi({ description: 'a JWT to attach to the user; omitted while no visitor claims are configured' }),
  })
  .openapi('PingResult');
