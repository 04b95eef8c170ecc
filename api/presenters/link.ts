import { z } from 'zod';
import type { LinkItem, LinkStats } from '../../domain/links/links';
import type { LinkStatus } from '../../entities/SpaceLink';
import type { Presented } from '../../platform/wire/to-wire';
import { listSchema } from './common';

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const satisfies readonly LinkStatus[];

const versionContextSchema = z
  .object({
    type: z.literal('revision').openapi({ description: 'always `revision`' }),
    revision: z.string().openapi({ description: 'id of the revision the reference was read in' }),
  })
  .openapi({ description: 'the revision in which the page or file is meant' });
const pageId = z.string().openapi({ description: 'id of the page' });
const spaceId = z.string().openapi({ description: 'id of the space' });
const organizationId = z.string().openapi({ description: 'id of the organization of the space' });

/** A page at a revision: where a link is, and each backlink. */
export const pageReferenceSchema = z
  .object({
    kind: z.literal('page').openapi({ description: 'always `page`' }),
    page: pageId,
    space: spaceId,
    organization: organizationId,
    versionContext: versionContextSchema,
  })
  .openapi('PageReference', { description: 'A page of a space, as it is in one revision' });

export const targetReferenceSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('page').openapi({ description: 'a page of the same content' }),
      page: pageId,
      space: spaceId,
      organization: organizationId,
      versionContext: versionContextSchema,
    }),
    z.object({
      kind: z.literal('file').openapi({ description: 'a file of the same content' }),
      file: z.string().openapi({ description: 'id of the file' }),
      space: spaceId,
      organization: organizationId,
      versionContext: versionContextSchema,
    }),
    z.object({
      kind: z.literal('space').openapi({ description: 'a space as a whole' }),
      space: z.string().openapi({ description: 'id of the space linked to' }),
      organization: z.string().openapi({ description: 'space links only count within the organization' }),
    }),
    z.object({
      kind: z.literal('openapi').openapi({ description: 'an OpenAPI specification' }),
      spec: z.string().openapi({ description: 'slug of the OpenAPI specification' }),
    }),
    z.object({
      kind: z.literal('url').openapi({ description: 'a web address' }),
      url: z
        .string()
        .openapi({ description: 'a URL, or the root-relative page path of a path link that leads nowhere' }),
    }),
  ])
  .openapi('LinkTargetReference', {
    description: 'Where a link leads: a page, a file, a space, an OpenAPI specification or a URL, told by `kind`',
  });

export const linkSchema = z
  .object({
    status: z.enum(LINK_STATUSES).openapi({
      description: "`ok`: the target exists; `broken`: it does not; `in-app`: a URL under the app's own address",
    }),
    relation: z.literal('reference').openapi({ description: 'always `reference`' }),
    targetReference: targetReferenceSchema,
    locationReferences: z
      .array(pageReferenceSchema)
      .openapi({ description: 'the page the link is written in (one entry)' }),
  })
  .openapi('Link', { description: 'A link written in a page, with where it leads and whether that exists' });

export const linkListSchema = listSchema(linkSchema)
  .extend({
    stats: z
      .object({
        total: z.number().int().openapi({ description: 'every link of the list, whatever the status filter' }),
        broken: z
          .object({
            total: z.number().int().openapi({ description: 'broken links among them, whatever the status filter' }),
            changeRequest: z
              .number()
              .int()
              .openapi({ description: 'broken links the change request introduces (0 outside a change request)' }),
          })
          .openapi({ description: 'counts of broken links' }),
      })
      .openapi({ description: 'counts over all the links, not only this page of the list' }),
  })
  .openapi('LinkList', { description: 'One page of links, with counts over all of them' });

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
