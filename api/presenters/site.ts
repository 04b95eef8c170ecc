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
    object: z.literal('site'),
    id: z.string(),
    type: z.enum(SITE_TYPES),
    appliedType: z.enum(SITE_TYPES).openapi({ description: 'GitBook 0.202: the type in effect, always `type` here' }),
    title: z.string(),
    hostname: z.string().optional(),
    basename: z.string().optional(),
    proxy: z
      .object({ origin: z.string(), target: z.string() })
      .optional()
      .openapi({ description: '`origin` proxies to the site at `target`' }),
    visibility: z.enum(SITE_VISIBILITIES),
    published: z.boolean(),
    siteSpaces: z.number().int().openapi({ description: 'how many site spaces the site shows' }),
    createdAt: timestamp,
    adaptiveContent: z.object({ enabled: z.boolean() }),
    agentsContext: z.enum(SITE_AGENTS_CONTEXTS),
    features: z
      .array(
        z.object({
          id: z.string(),
          plan: z.enum(SITE_TYPES),
          frozen: z.boolean(),
          customizations: z.array(z.string()).optional(),
        }),
      )
      .openapi({ description: 'premium features enabled on the site: none here, always empty' }),
    defaultLevel: z.null().openapi({ description: 'GitBook 0.202: members keep their organization role on the site' }),
    urls: z.object({
      location: z.string(),
      app: z.string(),
      published: z.string().optional().openapi({ description: 'absent while the site is not published' }),
      preview: z.string().openapi({ description: 'GitBook 0.202: where the site can be previewed, published or not' }),
    }),
    permissions: z.object({
      view: z.boolean(),
      access: z.boolean(),
      edit: z.boolean(),
      create: z.boolean(),
      admin: z.boolean(),
      installIntegration: z.boolean(),
      viewAdaptiveSchema: z.boolean(),
      editAdaptiveSchema: z.boolean(),
    }),
  })
  .openapi('Site');

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
