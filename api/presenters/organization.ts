import { z } from 'zod';
import type { OrganizationPermissions } from '../../domain/access/authorize';
import { organizationJson } from '../../domain/organizations/wire';
import type { Organization } from '../../entities/Organization';
import { roleSchema, timestamp } from './common';
import type { Urls } from './urls';

export const organizationSchema = z
  .object({
    object: z.literal('organization'),
    id: z.string(),
    title: z.string(),
    createdAt: timestamp,
    emailDomains: z.array(z.string()),
    hostname: z.string().nullable(),
    type: z.string(),
    useCase: z.string().nullable(),
    communityType: z.string().nullable(),
    defaultRole: roleSchema.nullable(),
    defaultContent: z.object({ type: z.string(), site: z.string() }).nullable(),
    sso: z.boolean(),
    ai: z.boolean(),
    inviteLinks: z.boolean(),
    plan: z.string(),
    billing: z.null().openapi({ description: 'always null: there is no billing system' }),
    mergeRules: z
      .object({ type: z.literal('none') })
      .openapi({ description: 'GitBook 0.202: change requests merge without a required review' }),
    urls: z.object({ location: z.string(), app: z.string(), logo: z.string().nullable() }),
    trial: z
      .object({ status: z.literal('notapplicable'), count: z.number().int(), endDate: z.null(), decision: z.null() })
      .openapi({ description: 'no trial can be started: there is no billing system' }),
    customHostname: z.null(),
    blocked: z.null().openapi({ description: 'organizations are never blocked' }),
    internal_billingMigration: z.null(),
    internal_isOnNewTrial: z.literal(true),
    permissions: z.record(z.boolean()),
  })
  .openapi('Organization');

export function presentOrganization(
  org: Organization,
  permissions: OrganizationPermissions,
  urls: Urls,
): z.infer<typeof organizationSchema> {
  return organizationJson(org, permissions, urls);
}
