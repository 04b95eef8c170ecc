/**
 * GitBook's `Organization` object: its one schema (which also documents it in /v1/openapi.json) and its builder.
 * The API's presenter and the integration environment that activities send both use them, and both go through
 * `toWire` (platform/wire/to-wire.ts), so an optional field without a value is left out on either path.
 */

import type { Organization } from '../../entities/Organization';
import { roleSchema, timestamp } from '../../platform/wire/common-fields';
import type { Presented } from '../../platform/wire/to-wire';
import { z } from '../../platform/wire/zod';
import type { OrganizationPermissions } from '../access/targets';
import type { Urls } from '../urls';

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

export type OrganizationJson = Presented<typeof organizationSchema>;

export function organizationJson(
  org: Organization,
  permissions: OrganizationPermissions,
  urls: Urls,
): OrganizationJson {
  return {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt.toISOString(),
    emailDomains: org.emailDomains,
    hostname: org.hostname,
    type: org.type,
    useCase: org.useCase,
    communityType: org.communityType,
    defaultRole: org.defaultRole,
    defaultContent: org.defaultContent,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    mergeRules: { type: 'none' },
    urls: { location: urls.api(`/orgs/${org.id}`), app: urls.app(`/o/${org.id}`), logo: org.logoURL },
    trial: { status: 'notapplicable', count: 0 },
    internal_isOnNewTrial: true,
    permissions: { ...permissions },
  };
}
