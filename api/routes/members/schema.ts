import { z } from 'zod';
import { roleSchema } from '../../presenters/common';
import { paginationQuery } from '../../query';

const id = z.string().min(1).max(64);

export const organizationIdParams = { organizationId: id };
export const memberParams = { organizationId: id, userId: id };
export const linkInviteParams = { organizationId: id, inviteId: id };
export const emailDomainParams = {
  emailDomain: z.string().min(3).max(253).regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i),
};

export const listMembersQuery = {
  ...paginationQuery,
  order: z.enum(['asc', 'desc']).default('desc'),
  role: roleSchema.optional(),
  search: z.string().min(1).max(256).optional(),
  sort: z.enum(['joinedAt', 'lastSeenAt']).default('joinedAt'),
};

export const listMemberTeamsQuery = {
  ...paginationQuery,
  title: z.string().min(1).max(255).optional(),
};

export const patchMemberBody = z
  .object({ role: roleSchema.nullable().openapi({ description: 'null makes the member a guest' }) })
  .strict();

export const pingResponse = z
  .object({
    serviceVisitorClaims: z.string().optional().openapi({ description: 'a JWT to attach to the user; omitted while no visitor claims are configured' }),
  })
  .openapi('PingResult');
