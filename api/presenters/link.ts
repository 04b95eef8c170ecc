import { z } from 'zod';
import type { LinkItem, LinkStats } from '../../domain/links/links';
import type { LinkStatus } from '../../entities/SpaceLink';
import type { Presented } from '../../platform/wire/to-wire';
import { listSchema } from './common';

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const satisfies readonly LinkStatus[];

const versionContextSchema = z.object({ type: z.literal('revision'), revision: z.string() });

/** A page at a revision: where a link is, and each backlink. */
export const pageReferenceSchema = z
  .object({
    kind: z.literal('page'),
    page: z.string(),
    space: z.string(),
    organization: z.string(),
    versionContext: versionContextSchema,
  })
  .openapi('PageReference');

export const targetReferenceSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('page'),
      page: z.string(),
      space: z.string(),
      organization: z.string(),
      versionContext: versionContextSchema,
    }),
    z.object({
      kind: z.literal('file'),
      file: z.string(),
      space: z.string(),
      organization: z.string(),
      versionContext: versionContextSchema,
    }),
    z.object({
      kind: z.literal('space'),
      space: z.string(),
      organization: z.string().openapi({ description: 'space links only count within the organization' }),
    }),
    z.object({ kind: z.literal('openapi'), spec: z.string() }),
    z.object({
      kind: z.literal('url'),
      url: z
        .string()
        .openapi({ description: 'a URL, or the root-relative page path of a path link that leads nowhere' }),
    }),
  ])
  .openapi('LinkTargetReference');

export const linkSchema = z
  .object({
    status: z.enum(LINK_STATUSES),
    relation: z.literal('reference'),
    targetReference: targetReferenceSchema,
    locationReferences: z.array(pageReferenceSchema),
  })
  .openapi('Link');

export const linkListSchema = listSchema(linkSchema)
  .extend({
    stats: z.object({
      total: z.number().int().openapi({ description: 'every link of the list, whatever the status filter' }),
      broken: z.object({
        total: z.number().int(),
        changeRequest: z
          .number()
          .int()
          .openapi({ description: 'broken links the change request introduces (0 outside a change request)' }),
      }),
    }),
  })
  .openapi('LinkList');

/** The space, organization and revision the links are read in. */
export interface LinkContext {
  organizationId: string;
  spaceId: string;
  revisionId: string;
}

export function presentPageReference(pageId: string, ctx: LinkContext): Presented<typeof pageReferenceSchema> {
  return {
    kind: 'page',
    page: pageId,
    space: ctx.spaceId,
    organization: ctx.organizationId,
    versionContext: { type: 'revision', revision: ctx.revisionId },
  };
}

function presentTarget(link: LinkItem, ctx: LinkContext): Presented<typeof targetReferenceSchema> {
  // pages and files are read in the same revision as the link itself
  const inSpace = {
    space: ctx.spaceId,
    organization: ctx.organizationId,
    versionContext: { type: 'revision' as const, revision: ctx.revisionId },
  };
  switch (link.kind) {
    case 'page':
      if (!link.byPath) return { kind: 'page', page: link.target, ...inSpace };
      return link.resolvedPageId
        ? { kind: 'page', page: link.resolvedPageId, ...inSpace }
        : { kind: 'url', url: `/${link.target}` };
    case 'file':
      return { kind: 'file', file: link.target, ...inSpace };
    case 'space':
      return { kind: 'space', space: link.target, organization: ctx.organizationId };
    case 'openapi':
      return { kind: 'openapi', spec: link.target };
    case 'url':
      return { kind: 'url', url: link.target };
  }
}

export function presentLink(link: LinkItem, ctx: LinkContext): Presented<typeof linkSchema> {
  return {
    status: link.status,
    relation: 'reference',
    targetReference: presentTarget(link, ctx),
    locationReferences: [presentPageReference(link.sourcePageId, ctx)],
  };
}

export function presentLinkList(
  page: { items: LinkItem[]; count: number; next?: { page: string } },
  stats: LinkStats & { introducedByChangeRequest: number },
  ctx: LinkContext,
): Presented<typeof linkListSchema> {
  return {
    items: page.items.map((l) => presentLink(l, ctx)),
    count: page.count,
    ...(page.next ? { next: page.next } : {}),
    stats: { total: stats.total, broken: { total: stats.broken, changeRequest: stats.introducedByChangeRequest } },
  };
}
