import { z } from 'zod';
import type { SitePermissions } from '../../domain/access/authorize';
import type { Site, SiteAgentsContext, SiteType, SiteVisibility } from '../../entities/Site';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, timestamp } from './common';
import { publishedOrNull, siteAddress } from './site-urls';
import type { Urls } from './urls';

export const SITE_TYPES = [
  'basic',
  'premium',
  'ultimate',
  'sponsored',
  'legacy-basic',
  'legacy-premium',
] as const satisfies readonly SiteType[];
export const SITE_VISIBILITIES = [
  'public',
  'unlisted',
  'share-link',
  'visitor-auth',
] as const satisfies readonly SiteVisibility[];
export const SITE_AGENTS_CONTEXTS = ['excluded', 'included'] as const satisfies readonly SiteAgentsContext[];

export const siteSchema = z
  .object({
    object: z.literal('site').openapi({ description: 'always `site`' }),
    id: z.string().openapi({ description: 'id of the site' }),
    type: z.enum(SITE_TYPES).openapi({ description: "the site's plan type, set on creation (`basic` by default)" }),
    appliedType: z.enum(SITE_TYPES).openapi({ description: 'GitBook 0.202: the type in effect, always `type` here' }),
    title: z.string().openapi({ description: 'the title of the site' }),
    hostname: z
      .string()
      .optional()
      .openapi({ description: 'the custom host name the site answers at; absent when it has none' }),
    basename: z
      .string()
      .optional()
      .openapi({ description: 'the path under the custom host name where the site answers; absent when it has none' }),
    proxy: z
      .object({
        origin: z.string().openapi({ description: 'the host and path the site is served from, behind a proxy' }),
        target: z.string().openapi({ description: "the site's own address, which the proxy forwards to" }),
      })
      .optional()
      .openapi({ description: '`origin` proxies to the site at `target`' }),
    visibility: z.enum(SITE_VISIBILITIES).openapi({
      description:
        "who may read the published site: `public`, `unlisted`, `share-link` (holders of a share link's key) or `visitor-auth` (visitors with a signed token)",
    }),
    published: z
      .boolean()
      .openapi({ description: 'true while the site is published and its audience, set by `visibility`, can read it' }),
    siteSpaces: z.number().int().openapi({ description: 'how many site spaces the site shows' }),
    createdAt: timestamp.openapi({ description: 'when the site was created (ISO 8601 date-time)' }),
    adaptiveContent: z
      .object({
        enabled: z
          .boolean()
          .openapi({ description: "true: items with a condition are shown by their visitors' claims" }),
      })
      .openapi({ description: 'adaptive content: whether what each visitor sees follows their claims' }),
    agentsContext: z
      .enum(SITE_AGENTS_CONTEXTS)
      .openapi({ description: 'whether the site is part of the context AI agents are given (`included` by default)' }),
    features: z
      .array(
        z.object({
          id: z.string().openapi({ description: 'id of the feature' }),
          plan: z.enum(SITE_TYPES).openapi({ description: 'the plan type the feature comes with' }),
          frozen: z
            .boolean()
            .openapi({ description: "GitBook's `frozen` flag of the feature (no feature is listed here)" }),
          customizations: z
            .array(z.string())
            .optional()
            .openapi({ description: 'names of the customization settings that come with the feature' }),
        }),
      )
      .openapi({ description: 'premium features enabled on the site: none here, always empty' }),
    defaultLevel: z.null().openapi({ description: 'GitBook 0.202: members keep their organization role on the site' }),
    urls: z
      .object({
        location: z.string().openapi({ description: 'the URL of the site in this API' }),
        app: z.string().openapi({ description: 'the URL of the site in the app' }),
        published: z.string().optional().openapi({ description: 'absent while the site is not published' }),
        preview: z
          .string()
          .openapi({ description: 'GitBook 0.202: where the site can be previewed, published or not' }),
      })
      .openapi({ description: 'where the site is: in this API, in the app, published, previewed' }),
    permissions: z
      .object({
        view: z.boolean().openapi({ description: 'may read the site and its structure (every full member)' }),
        access: z.boolean().openapi({ description: "GitBook's access permission: the same as `view` here" }),
        edit: z.boolean().openapi({ description: 'holds at least the `edit` role in the organization' }),
        create: z.boolean().openapi({ description: 'holds at least the `create` role in the organization' }),
        admin: z
          .boolean()
          .openapi({ description: 'may change the site: settings, structure, publishing, share links (admins)' }),
        installIntegration: z.boolean().openapi({ description: 'may install integrations on the site (admins)' }),
        viewAdaptiveSchema: z
          .boolean()
          .openapi({ description: 'may read the adaptive schema and its template conditions (every full member)' }),
        editAdaptiveSchema: z.boolean().openapi({ description: 'may replace the adaptive schema (admins)' }),
      })
      .openapi({ description: 'what the caller may do with the site' }),
  })
  .openapi('Site', {
    description:
      'A site: the published form of one or more spaces, arranged at its root level or in sections and section groups, with its address, audience and settings.',
  });

export type PresentedSite = Presented<typeof siteSchema>;

export function presentSite(site: Site, siteSpaces: number, permissions: SitePermissions, urls: Urls): PresentedSite {
  return {
    object: 'site',
    id: site.id,
    type: site.type,
    appliedType: site.type,
    title: site.title,
    hostname: site.hostname,
    basename: site.basename,
    proxy: site.proxy
      ? { origin: site.proxy, target: siteAddress({ ...site, proxy: null, hostname: null }, urls) }
      : null,
    visibility: site.visibility,
    published: site.published,
    siteSpaces,
    createdAt: iso(site.createdAt),
    adaptiveContent: { enabled: site.adaptiveContentEnabled },
    agentsContext: site.agentsContext,
    features: [],
    defaultLevel: null,
    urls: {
      location: urls.api(`/orgs/${site.organizationId}/sites/${site.id}`),
      app: urls.app(`/o/${site.organizationId}/sites/${site.id}`),
      published: publishedOrNull(site, () => siteAddress(site, urls)),
      preview: urls.app(`/o/${site.organizationId}/sites/${site.id}/preview`),
    },
    permissions: { ...permissions },
  };
}
