import { z } from 'zod';
import { roleSchema } from '../../presenters/common';
import { paginationQuery } from '../../query';
import { emailDomain, httpsUrl, pathId, resourceId, text } from '../../schemas';

export const organizationIdParams = { organizationId: pathId('organization') };

const title = text({ min: 2, max: 255, trim: true });
const hostname = z
  .string()
  .min(3)
  .max(32)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/);

export const ORGANIZATION_TYPES = ['business', 'community'] as const;

export const createOrganizationBody = z
  .object({
    title,
    type: z.enum(ORGANIZATION_TYPES).optional(),
    hostname: hostname.optional(),
    emailDomains: z.array(emailDomain).max(50).optional(),
    defaultRole: roleSchema.nullable().optional(),
  })
  .strict();

export const patchOrganizationBody = z
  .object({
    title: title.optional(),
    emailDomains: z.array(emailDomain).max(50).optional(),
    hostname: hostname.optional(),
    defaultRole: roleSchema.nullable().optional(),
    defaultContent: z
      .object({ type: z.literal('site'), site: resourceId })
      .strict()
      .nullable()
      .optional(),
    logo: httpsUrl.nullable().optional(),
    sso: z.boolean().optional(),
    ai: z.boolean().optional(),
    inviteLinks: z.boolean().optional(),
  })
  .strict();

export const listOrganizationsQuery = { ...paginationQuery };
