import { z } from 'zod';
import { roleSchema } from '../../presenters/common';
import { paginationQuery } from '../../query';
import { emailDomain, httpsUrl, pathId, resourceId, text } from '../../schemas';
import { organizationMergeRulesBody } from '../change-requests/merge-rules-schema';

export const organizationIdParams = { organizationId: pathId('organization') };

const title = text({ min: 2, max: 255, trim: true }).openapi({
  description: 'name of the organization, 2 to 255 characters (spaces around it are removed)',
});
const hostname = z
  .string()
  .min(3)
  .max(32)
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/)
  .openapi({
    description:
      'default hostname for public content: 3 to 32 lower-case letters, digits and inner hyphens; unique (409)',
  });
const emailDomains = z.array(emailDomain).max(50).openapi({
  description:
    "e-mail domains to claim, at most 50; each one added must be the caller's own e-mail domain and no public mail provider's",
});

export const ORGANIZATION_TYPES = ['business', 'community'] as const;

export const createOrganizationBody = z
  .object({
    title,
    type: z.enum(ORGANIZATION_TYPES).optional().openapi({ description: 'kind of organization; default `business`' }),
    hostname: hostname.optional(),
    emailDomains: emailDomains.optional(),
    defaultRole: roleSchema
      .nullable()
      .optional()
      .openapi({ description: 'default organization role of members; default `read`, null: guests' }),
  })
  .strict();

export const patchOrganizationBody = z
  .object({
    title: title.optional(),
    emailDomains: emailDomains.optional().openapi({
      description:
        "replaces the claimed domains; a domain added must be the caller's own (already claimed ones may stay or go)",
    }),
    hostname: hostname.optional(),
    defaultRole: roleSchema
      .nullable()
      .optional()
      .openapi({ description: 'default organization role of members; null: guests' }),
    defaultContent: z
      .object({
        type: z.literal('site').openapi({ description: 'always `site`' }),
        site: resourceId.openapi({ description: 'id of the site' }),
      })
      .strict()
      .nullable()
      .optional()
      .openapi({ description: 'the site the organization opens on; null: none' }),
    logo: httpsUrl
      .nullable()
      .optional()
      .openapi({ description: 'https URL of the logo, at most 2048 characters; null removes it' }),
    sso: z
      .boolean()
      .optional()
      .openapi({ description: 'enforce single sign-on for the whole organization (stored setting)' }),
    ai: z.boolean().optional().openapi({ description: 'switch AI features on or off (stored setting)' }),
    inviteLinks: z.boolean().optional().openapi({ description: 'enable or disable invite links' }),
    mergeRules: organizationMergeRulesBody.optional(),
  })
  .strict();

export const listOrganizationsQuery = { ...paginationQuery };
