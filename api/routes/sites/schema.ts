import { z } from 'zod';
import { ITEM_TYPES, ItemRef, ItemType } from '../../../domain/sites/order';
import type { SortAnchor } from '../../../domain/sites/sort';
import { SITE_AGENTS_CONTEXTS, SITE_TYPES, SITE_VISIBILITIES } from '../../presenters/site';
import { paginationQuery, queryBoolean, queryList } from '../../query';
import { pathId, resourceId, text } from '../../schemas';
import { organizationIdParams } from '../orgs/schema';
import { getSpaceQuery } from '../spaces/schema';

export const siteParams = {
  ...organizationIdParams,
  siteId: pathId('site').openapi({ description: "id of the site, one of the organization's" }),
};
const siteSectionId = pathId('site section').openapi({ description: "id of the section, one of the site's" });
export const sectionParams = { ...siteParams, siteSectionId };
export const sectionGroupParams = {
  ...siteParams,
  siteSectionGroupId: pathId('site section group').openapi({
    description: "id of the section group, one of the site's",
  }),
};
export const groupMemberParams = { ...sectionGroupParams, siteSectionId };
export const siteSpaceParams = {
  ...siteParams,
  siteSpaceId: pathId('site space').openapi({ description: "id of the site space, one of the site's" }),
};

// GitBook's patterns (SiteHostname, SiteProxyOrigin) and limits
const HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
const PROXY = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
/** A path is one URL segment: letters, digits, "-", "_", ".", "~", starting with a letter or digit (empty: the length rule speaks). */
const PATH = /^(?:[A-Za-z0-9][A-Za-z0-9._~-]*)?$/;

const siteTitle = text({ min: 2, max: 128, trim: true }).openapi({
  description: 'the title of the site: 2–128 characters, trimmed',
});
const sectionTitle = text({ min: 2, max: 128, trim: true }).openapi({
  description: "the title of the section, shown in the site's navigation: 2–128 characters, trimmed",
});
const groupTitle = text({ min: 1, max: 100, trim: true }).openapi({
  description: 'the title of the group: 1–100 characters, trimmed',
});
const icon = text({ min: 1, max: 50 }).openapi({ description: 'an icon name, e.g. "gear"' });
const path = text(
  { min: 1, max: 100 },
  z.string().regex(PATH, 'must be letters, digits, "-", "_", "." or "~", starting with a letter or digit'),
).openapi({
  description:
    'one URL segment of its address: 1–100 letters, digits, "-", "_", "." or "~", starting with a letter or digit; 409 when it is taken',
});
const condition = text({ min: 1, max: 1024 }).openapi({
  description: "an expression over the visitor's claims, e.g. `visitor.claims.beta == true`",
});
const hostname = text(
  { max: 512 },
  z.string().regex(HOSTNAME, 'must be a lowercase host name of three or more labels, e.g. docs.example.com'),
);
const proxy = text(
  { max: 512 },
  z.string().regex(PROXY, 'must be a host and one or more path segments, e.g. example.com/docs'),
);
/** A space by id, or null for a new blank space (GitBook 0.202). */
const spaceIdOrNew = resourceId
  .nullable()
  .openapi({ description: 'a space of the organization; null creates a new blank space' });

export const SPACES_KEYWORDS = ['empty', 'sample'] as const;

export const listSitesQuery = {
  ...paginationQuery,
  space: resourceId.optional().openapi({ description: 'only sites that show this space' }),
  title: text({ min: 1, max: 128, characters: 'any' })
    .optional()
    .openapi({ description: 'only sites whose title contains this, ignoring case' }),
  published: queryBoolean
    .optional()
    .openapi({ description: 'true: only published sites; false: only unpublished ones; absent: both' }),
  type: queryList(z.enum(SITE_TYPES)).optional().openapi({ description: 'only sites of these types' }),
};

const visibility = z.enum(SITE_VISIBILITIES).openapi({
  description:
    "who may read the published site: `public` (anyone), `unlisted` (anyone with the address), `share-link` (holders of an active share link's key), `visitor-auth` (visitors with a token signed with the site's key)",
});

export const createSiteBody = z
  .object({
    type: z.enum(SITE_TYPES).optional().openapi({ description: "the site's plan type; default `basic`" }),
    title: siteTitle
      .optional()
      .openapi({ description: 'the title of the site, 2–128 characters; default "Untitled site"' }),
    visibility: visibility
      .optional()
      .openapi({ description: 'who may read it once it is published; default `public`' }),
    spaces: z
      .union([z.array(resourceId).max(100), z.enum(SPACES_KEYWORDS)])
      .optional()
      .openapi({
        description:
          'space ids, each shown at the root level in order; "empty" or "sample": a new space for the site, blank or from a starter template',
      }),
  })
  .strict();

export const patchSiteBody = z
  .object({
    title: siteTitle.optional(),
    visibility: visibility.optional(),
    basename: text({ min: 1, max: 100 }).nullable().optional().openapi({
      description: 'a path (1–100 characters) under the custom hostname where the site answers; null removes it',
    }),
    hostname: hostname
      .nullable()
      .optional()
      .openapi({ description: 'custom host name, unique across the service; null removes it' }),
    adaptiveContent: z
      .object({
        enabled: z.boolean().openapi({
          description: "true: sections and site spaces with a condition are shown by their visitors' claims",
        }),
      })
      .strict()
      .optional()
      .openapi({ description: 'adaptive content: what each visitor sees follows their claims' }),
    agentsContext: z
      .enum(SITE_AGENTS_CONTEXTS)
      .optional()
      .openapi({ description: 'whether the site is part of the context AI agents are given' }),
    defaultSiteSpace: resourceId
      .optional()
      .openapi({ description: 'a site space: the default of its section, or of the root level' }),
    defaultSiteSection: resourceId
      .optional()
      .openapi({ description: 'id of a section of the site, which becomes the default section' }),
    proxy: proxy.nullable().optional().openapi({ description: 'proxy origin (host and path); null removes it' }),
  })
  .strict();

export const listSectionsQuery = { ...paginationQuery, ...getSpaceQuery };
export const listSectionGroupsQuery = { ...paginationQuery };
export const listSiteSpacesQuery = {
  ...paginationQuery,
  ...getSpaceQuery,
  default: queryBoolean.optional().openapi({ description: 'true: only default site spaces; false: only the others' }),
};

export const addSectionBody = z
  .object({
    spaceId: spaceIdOrNew,
    title: sectionTitle.nullable().optional().openapi({ description: "default: the space's title" }),
    icon: icon.nullable().optional(),
    siteSectionGroupId: resourceId.optional().openapi({ description: 'GitBook 0.202: create it in this group' }),
  })
  .strict();

export const patchSectionBody = z
  .object({
    title: sectionTitle.optional(),
    path: path.optional(),
    defaultSiteSpace: resourceId
      .optional()
      .openapi({ description: "id of one of the section's site spaces, which becomes its default" }),
    condition: condition.nullable().optional().openapi({ description: 'null removes it' }),
    icon: icon.nullable().optional(),
    description: text({ max: 256, trim: true })
      .nullable()
      .optional()
      .openapi({ description: 'a short description of the section, at most 256 characters; null removes it' }),
    siteSectionGroupId: resourceId
      .nullable()
      .optional()
      .openapi({ description: 'GitBook 0.202: move into this group, or null to the root level (last there)' }),
  })
  .strict();

export const addSectionGroupBody = z
  .object({
    title: groupTitle,
    icon: icon.nullable().optional(),
    sections: z
      .array(resourceId)
      .max(100)
      .optional()
      .openapi({ description: 'sections of the site that move into the group, in this order' }),
  })
  .strict();

export const patchSectionGroupBody = z
  .object({ title: groupTitle.optional(), icon: icon.nullable().optional() })
  .strict();

export const addSectionToGroupBody = z
  .object({
    sectionId: resourceId.openapi({ description: 'id of the section of the site that moves into the group' }),
  })
  .strict();

export const addSiteSpaceBody = z
  .object({
    spaceId: spaceIdOrNew,
    sectionId: resourceId
      .optional()
      .openapi({ description: 'default: the default section, or the root level of a site without sections' }),
  })
  .strict();

export const patchSiteSpaceBody = z
  .object({
    path: path.optional(),
    condition: condition.nullable().optional().openapi({ description: 'null removes it' }),
    spaceId: resourceId.optional().openapi({ description: 'the space it shows from now on' }),
  })
  .strict();

/** `{before?, after?}`, at most one of them; none: the end of the level. */
function positionOf<P extends z.ZodTypeAny>(pointer: P) {
  return z
    .object({ before: pointer.optional(), after: pointer.optional() })
    .strict()
    .refine((p) => !(p.before && p.after), 'give before or after, not both')
    .openapi({
      maxProperties: 1,
      description: 'a sibling to place the item before or after; empty: the end of its level',
    });
}

const pointer = z
  .object({
    type: z.enum(ITEM_TYPES).openapi({ description: 'what kind of item it is' }),
    id: resourceId.openapi({ description: 'id of the site space, section or section group' }),
  })
  .strict()
  .openapi('SiteStructureItemPointer', { description: "an item of the site's structure, by kind and id" });

export const sortBody = z.object({ item: pointer, position: positionOf(pointer).optional() }).strict();

/** The deprecated moves' bodies name their siblings each their own way. */
export const moveSectionBody = z
  .object({
    position: positionOf(
      z
        .object({
          type: z.literal('site-section').openapi({ description: 'always `site-section`' }),
          siteSection: resourceId.openapi({ description: 'id of the sibling section' }),
        })
        .strict()
        .openapi({ description: 'a section at the same level as the moved one' }),
    ).optional(),
  })
  .strict();
export const moveSectionGroupBody = z
  .object({
    position: positionOf(
      z
        .object({
          type: z
            .enum(['site-section', 'site-section-group'])
            .openapi({ description: 'whether the sibling is a section or a section group' }),
          id: resourceId.openapi({ description: 'id of the sibling section or group' }),
        })
        .strict()
        .openapi({ description: 'a section or section group at the root level' }),
    ).optional(),
  })
  .strict();
export const moveSiteSpaceBody = z
  .object({
    position: positionOf(
      z
        .object({
          type: z.literal('site-space').openapi({ description: 'always `site-space`' }),
          siteSpace: resourceId.openapi({ description: 'id of the sibling site space' }),
        })
        .strict()
        .openapi({ description: 'a site space at the same level as the moved one' }),
    ).optional(),
  })
  .strict();

type Pointer = { type: ItemType; id?: string; siteSection?: string; siteSpace?: string };

/** The anchor of a position in any of the bodies above. */
export function anchorOf(position: { before?: Pointer; after?: Pointer } | undefined): SortAnchor | undefined {
  const side = position?.before ? 'before' : position?.after ? 'after' : undefined;
  if (!side) return undefined;
  const p = position![side]!;
  const ref: ItemRef = { type: p.type, id: (p.id ?? p.siteSection ?? p.siteSpace)! };
  return { side, ref };
}
