import { z } from 'zod';
import type { OrganizationPermissions } from '../../domain/access/authorize';
import { organizationJson } from '../../domain/organizations/wire';
import type { Organization } from '../../entities/Organization';
import { roleSchema, timestamp } from './common';
import type { Urls } from './urls';
import type { Presented } from './wire';

export const organizationSchema = z
  .object({
    object: z.literal('organization'),
    id: z.string(),
    title: z.string(),
    createdAt: timestamp,
    emailDomains: z.array(z.string()),
    hostname: z.string().optional(),
    type: z.string(),
    useCase: z.string().optional(),
    communityType: z.string().optional(),
    defaultRole: roleSchema.optional(),
    defaultContent: z.object({ type: z.string(), site: z.string() }).optional(),
    sso: z.boolean(),
    ai: z.boolean(),
    inviteLinks: z.boolean(),
    plan: z.string(),
    mergeRules: z
      .object({ type: z.literal('none') })
      .openapi({ description: 'GitBook 0.202: change requests merge without a required review' }),
    urls: z.object({ location: z.string(), app: z.string(), logo: z.string().optional() }),
    trial: z
      .object({ status: z.literal('notapplicable'), count: z.number().int() })
      .openapi({ description: 'no trial can be started: there is no billing system' }),
    internal_isOnNewTrial: z.literal(true),
    permissions: z.record(z.boolean()),
  })
  .openapi('Organization');

export function presentOrganization(
  org: Organization,
  permissions: OrganizationPermissions,
  urls: Urls,
): Presented<typeof organizationSchema> {
  return organizationJson(org, permissions, urls);
}
