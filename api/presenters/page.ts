import { z } from 'zod';
import type { Document } from '../../domain/content/document';
import type { PageNode, PageRecord } from '../../domain/content/reader';
import { timestamp } from './common';
import { documentSchema } from './document';
import type { Urls } from './urls';

export interface PageJson {
  id: string;
  title: string;
  emoji?: string;
  createdAt: string;
  updatedAt: string;
  markdown?: string;
  document?: Document;
  type: 'document';
  urls: { app: string };
  slug: string;
  path: string;
  description?: string;
  pages?: PageJson[];
  hidden: boolean;
}

// zod-to-openapi 7 cannot describe recursive (lazy) schemas: child pages point back at Page by $ref.
const childPages = z
  .array(z.custom<PageJson>())
  .openapi({
    type: 'array',
    items: { $ref: '#/components/schemas/Page' },
    description: 'child pages: the whole subtree in the content and page-list reads; one level (without their own `pages`) on a single page',
  });

export const pageSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    emoji: z.string().optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
    markdown: z.string().optional().openapi({ description: 'single page read with format=markdown (the default), and page writes' }),
    document: documentSchema.optional().openapi({ description: 'single page read with format=document' }),
    type: z.literal('document'),
    urls: z.object({ app: z.string() }),
    slug: z.string(),
    path: z.string(),
    description: z.string().optional(),
    pages: childPages.optional(),
    hidden: z.boolean(),
  })
  .openapi('Page');

/** The page's body in the requested form; none for the summaries inside trees and child lists. */
export type PageBody = { markdown: string } | { document: Document } | Record<string, never>;

/** Where a content's pages live in the app: the space, or the change request inside it. */
export function pageAppUrl(urls: Urls, contentAppPath: string, pagePath: string): string {
  return urls.app(`${contentAppPath}/${pagePath}`);
}

export function presentPage(page: PageRecord, urls: Urls, contentAppPath: string, body: PageBody, children?: PageJson[]): PageJson {
  const { version } = page;
  return {
    id: page.id,
    title: version.title,
    ...(version.emoji !== null ? { emoji: version.emoji } : {}),
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
    ...body,
    type: 'document',
    urls: { app: pageAppUrl(urls, contentAppPath, page.path) },
    slug: page.entry.slug,
    path: page.path,
    ...(version.description !== null ? { description: version.description } : {}),
    ...(children ? { pages: children } : {}),
    hidden: version.hidden,
  };
}

/** A whole page tree as nested summaries (no body), every level with its `pages`. */
export function presentPageTree(nodes: PageNode[], urls: Urls, contentAppPath: string): PageJson[] {
  return nodes.map((node) => presentPage(node, urls, contentAppPath, {}, presentPageTree(node.children, urls, contentAppPath)));
}
