import { z } from 'zod';
import type { OrganizationPermissions } from '../../domain/access/authorize';
import type { Organization } from '../../entities/Organization';
import { iso, roleSchema, timestamp } from './common';
import type { Urls } from './urls';

export const organizationSchema = z.object({
  object: z.literal('organization'),
  id: z.string(),
  title: z.string(),
  createdAt: timestamp,
  emailDomains: z.array(z.string()),
  hostname: z.string().optional(),
  type: z.string(),
  useCase: z.string().optional(),
  communityType: z.string().optional(),
  defaultRole: roleSchema.nullable(),
  defaultContent: z.object({ type: z.string(), site: z.string() }).nullable(),
  sso: z.boolean(),
  ai: z.boolean(),
  inviteLinks: z.boolean(),
  plan: z.string(),
  internal_isOnNewTrial: z.literal(true),
  urls: z.object({ location: z.string(), app: z.string(), logo: z.string().optional() }),
  permissions: z.record(z.boolean()),
}).openapi('Organization');

export function presentOrganization(org: Organization, permissions: OrganizationPermissions, urls: Urls): z.infer<typeof organizationSchema> {
  return {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: iso(org.createdAt),
    emailDomains: org.emailDomains,
    ...(org.hostname ? { hostname: org.hostname } : {}),
    type: org.type,
    ...(org.useCase ? { useCase: org.useCase } : {}),
    ...(org.communityType ? { communityType: org.communityType } : {}),
    defaultRole: org.defaultRole,
    defaultContent: org.defaultContent,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    internal_isOnNewTrial: true,
    urls: {
      location: urls.api(`/orgs/${org.id}`),
      app: urls.app(`/o/${org.id}`),
      ...(org.logoURL ? { logo: org.logoURL } : {}),
    },
    permissions: { ...permissions },
  };
}
