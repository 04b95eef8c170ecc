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
import { NO_MERGE_RULES } from '../merge-rules/configuration';
import { mergeRulesConfigurationSchema } from '../merge-rules/wire';
import type { Urls } from '../urls';

export const organizationSchema = z
  .object({
    object: z.literal('organization').openapi({ description: 'always `organization`' }),
    id: z.string().openapi({ description: 'id of the organization' }),
    title: z.string().openapi({ description: 'name of the organization, 2 to 255 characters' }),
    createdAt: timestamp.openapi({ description: 'when the organization was created (ISO 8601 date-time)' }),
    emailDomains: z.array(z.string()).openapi({
      description:
        'e-mail domains the organization claims (lower case): users of a domain find it through the domain lookup',
    }),
    hostname: z
      .string()
      .optional()
      .openapi({ description: 'default hostname for its public content; absent when unset' }),
    type: z.string().openapi({ description: '`business` (the default) or `community`' }),
    useCase: z
      .string()
      .optional()
      .openapi({ description: 'what the organization uses the service for; absent when unset' }),
    communityType: z
      .string()
      .optional()
      .openapi({ description: 'kind of community, for a `community` organization; absent when unset' }),
    defaultRole: roleSchema.optional().openapi({
      description: 'default organization role of its members (`read` for a new organization); absent: guests',
    }),
    defaultContent: z
      .object({
        type: z.string().openapi({ description: 'always `site`' }),
        site: z.string().openapi({ description: 'id of the site' }),
      })
      .optional()
      .openapi({ description: 'the site the organization opens on; absent when none is chosen' }),
    sso: z.boolean().openapi({ description: 'single sign-on enforced for the whole organization (a stored setting)' }),
    ai: z.boolean().openapi({ description: 'AI features switched on (a stored setting)' }),
    inviteLinks: z.boolean().openapi({ description: 'invite links enabled (true for a new organization)' }),
    plan: z.string().openapi({ description: 'name of the product plan; always `free_2024` (there is no billing)' }),
    mergeRules: mergeRulesConfigurationSchema,
    urls: z
      .object({
        location: z.string().openapi({ description: 'API URL of the organization' }),
        app: z.string().openapi({ description: 'URL of the organization in the app' }),
        logo: z.string().optional().openapi({ description: "https URL of the organization's logo; absent when unset" }),
      })
      .openapi({ description: 'where the organization and its logo are found' }),
    trial: z
      .object({
        status: z.literal('notapplicable').openapi({ description: 'always `notapplicable`' }),
        count: z.number().int().openapi({ description: 'trials started; always 0' }),
      })
      .openapi({ description: 'no trial can be started: there is no billing system' }),
    internal_isOnNewTrial: z.literal(true).openapi({ description: 'deprecated; always true' }),
    permissions: z.record(z.boolean()).openapi({
      description:
        'what the caller may do in the organization, by permission name (`view`, `admin`, `createContent`, `listMembers`, …)',
    }),
  })
  .openapi('Organization', { description: 'A workspace that owns members, teams, spaces, collections and sites.' });

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
    mergeRules: org.mergeRules ?? NO_MERGE_RULES,
    urls: { location: urls.api(`/orgs/${org.id}`), app: urls.app(`/o/${org.id}`), logo: org.logoURL },
    trial: { status: 'notapplicable', count: 0 },
    internal_isOnNewTrial: true,
    permissions: { ...permissions },
  };
}
