import { ZodTypeAny, z } from 'zod';
import type { PageNode, PageRecord } from '../../domain/content/reader';
import { standingFor } from '../../platform/wire/to-wire';
import { timestamp } from './common';
import { documentSchema } from './document';
import type { GitBookDocument } from './gitbook-document';
import type { Urls } from './urls';

/**
 * How every page is laid out. Pages have no layout settings of their own, so each shows GitBook's
 * default ("docs") layout: everything visible, the default width, a hero-sized cover without a mask.
 */
export const DEFAULT_PAGE_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
} as const;

export interface PageJson {
  id: string;
  title: string;
  emoji: string | null;
  createdAt: string;
  updatedAt: string;
  markdown?: string;
  document?: GitBookDocument;
  kind: 'sheet';
  type: 'document';
  urls: { app: string };
  slug: string;
  path: string;
  description: string | null;
  pages: PageJson[];
  layout: typeof DEFAULT_PAGE_LAYOUT;
  variables: Record<string, never>;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  computed: null;
  computedSeed: null;
  tags: never[];
}

// zod-to-openapi 7 cannot describe recursive (lazy) schemas: child pages point back at Page by $ref.
const childPage = standingFor(z.custom<PageJson>(), (): ZodTypeAny => pageSchema);
const childPages = z.array(childPage).openapi({
  type: 'array',
  items: { $ref: '#/components/schemas/Page' },
  description: 'child pages, each with its own `pages`: the whole subtree',
});

// GitBook's types for each option, so the document stays the same when pages get layout settings.
const layoutSchema = z
  .object({
    width: z.enum(['default', 'wide']),
    cover: z.boolean(),
    coverSize: z.enum(['hero', 'full']),
    coverMask: z.enum(['none', 'radial']),
    title: z.boolean(),
    description: z.boolean(),
    tableOfContents: z.boolean(),
    outline: z.boolean(),
    pagination: z.boolean(),
    metadata: z.boolean(),
    tags: z.boolean(),
    actions: z.boolean(),
    anchors: z.boolean(),
  })
  .openapi('PageLayout', {
    description: `always GitBook's default layout (pages have no layout settings of their own): ${JSON.stringify(DEFAULT_PAGE_LAYOUT)}`,
  });

export const pageSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    emoji: z.string().optional(),
    createdAt: timestamp,
    updatedAt: timestamp,
    markdown: z.string().optional().openapi({ description: 'the body, unless a page read asked for format=document' }),
    document: documentSchema
      .optional()
      .openapi({ description: 'the body of the page read with format=document (instead of `markdown`)' }),
    kind: z.literal('sheet').openapi({ description: "GitBook's deprecated page kind, still required by its document" }),
    type: z.literal('document'),
    urls: z.object({ app: z.string() }),
    slug: z.string(),
    path: z.string(),
    description: z.string().optional(),
    pages: childPages,
    layout: layoutSchema,
    variables: z.object({}).strict().openapi({ description: 'always empty: variables belong to the revision' }),
    hidden: z.boolean(),
    noIndex: z.boolean().openapi({ description: 'always false: every page is searchable' }),
    noRobotsIndex: z.boolean().openapi({ description: 'always false' }),
    computed: z.null().openapi({ description: 'no page is computed' }),
    computedSeed: z.null(),
    tags: z.array(z.unknown()).max(0).openapi({ description: 'GitBook 0.202; always empty: pages have no tags' }),
  })
  .openapi('Page');

/** The page's body in the requested form. */
export type PageBody = { markdown: string } | { document: GitBookDocument };

/** Where a content's pages live in the app: the space, or the change request inside it. */
export function pageAppUrl(urls: Urls, contentAppPath: string, pagePath: string): string {
  return urls.app(`${contentAppPath}/${pagePath}`);
}

/** `children` are the page's child pages, already presented with their own subtrees. */
export function presentPage(
  page: PageRecord,
  urls: Urls,
  contentAppPath: string,
  body: PageBody,
  children: PageJson[],
): PageJson {
  const { version } = page;
  return {
    id: page.id,
    title: version.title,
    emoji: version.emoji,
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
    ...body,
    kind: 'sheet',
    type: 'document',
    urls: { app: pageAppUrl(urls, contentAppPath, page.path) },
    slug: page.entry.slug,
    path: page.path,
    description: version.description,
    pages: children,
    layout: DEFAULT_PAGE_LAYOUT,
    variables: {},
    hidden: version.hidden,
    noIndex: false,
    noRobotsIndex: false,
    computed: null,
    computedSeed: null,
    tags: [],
  };
}

/** Pages with their whole subtrees, each page with its markdown (already loaded with its title). */
export function presentPageTree(nodes: PageNode[], urls: Urls, contentAppPath: string): PageJson[] {
  return nodes.map((node) =>
    presentPage(
      node,
      urls,
      contentAppPath,
      { markdown: node.version.markdown },
      presentPageTree(node.children, urls, contentAppPath),
    ),
  );
}
