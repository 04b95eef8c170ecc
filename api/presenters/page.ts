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
    width: z.enum(['default', 'wide']).openapi({ description: 'width of the page body; always `default`' }),
    cover: z.boolean().openapi({ description: 'whether the cover image is shown; always true' }),
    coverSize: z.enum(['hero', 'full']).openapi({ description: 'height of the cover; always `hero`' }),
    coverMask: z.enum(['none', 'radial']).openapi({ description: 'fade applied over the cover; always `none`' }),
    title: z.boolean().openapi({ description: 'whether the title is shown; always true' }),
    description: z.boolean().openapi({ description: 'whether the description is shown; always true' }),
    tableOfContents: z
      .boolean()
      .openapi({ description: 'whether the table of contents is shown beside the page; always true' }),
    outline: z.boolean().openapi({ description: "whether the outline of the page's headings is shown; always true" }),
    pagination: z.boolean().openapi({ description: 'whether previous/next links are shown; always true' }),
    metadata: z.boolean().openapi({ description: 'whether the last-modified line is shown; always true' }),
    tags: z.boolean().openapi({ description: 'whether page tags are shown; always true' }),
    actions: z.boolean().openapi({ description: 'whether the page actions menu is shown; always true' }),
    anchors: z.boolean().openapi({ description: 'whether headings get link anchors; always true' }),
  })
  .openapi('PageLayout', {
    description: `always GitBook's default layout (pages have no layout settings of their own): ${JSON.stringify(DEFAULT_PAGE_LAYOUT)}`,
  });

export const pageSchema = z
  .object({
    id: z.string().openapi({ description: 'id of the page, stable across revisions and moves' }),
    title: z.string().openapi({ description: 'title of the page (1 to 256 characters)' }),
    emoji: z.string().optional().openapi({ description: 'emoji shown before the title; absent when none is set' }),
    createdAt: timestamp.openapi({ description: 'when the page was created (ISO 8601 date-time)' }),
    updatedAt: timestamp.openapi({ description: 'when the page was last edited (ISO 8601 date-time)' }),
    markdown: z.string().optional().openapi({
      description:
        "the body in markdown; a page read with format=document answers `document` (GitBook's structured form) instead",
    }),
    document: documentSchema.optional(),
    kind: z.literal('sheet').openapi({ description: "GitBook's deprecated page kind, still required by its document" }),
    type: z.literal('document').openapi({ description: 'always `document`: every page holds a document body' }),
    urls: z
      .object({
        app: z.string().openapi({ description: "URL of the page in the web app, in this content's view" }),
      })
      .openapi({ description: 'where the page can be opened' }),
    slug: z
      .string()
      .openapi({ description: "the page's own path segment, made from its title, unique among siblings" }),
    path: z.string().openapi({ description: 'the slugs from the root level down to this page, joined by `/`' }),
    description: z
      .string()
      .optional()
      .openapi({ description: 'short summary shown under the title; absent when none' }),
    pages: childPages,
    layout: layoutSchema,
    variables: z.object({}).strict().openapi({ description: 'always empty: variables belong to the revision' }),
    hidden: z
      .boolean()
      .openapi({ description: "GitBook's flag for a page kept out of the navigation; stored and returned as set" }),
    noIndex: z.boolean().openapi({ description: 'always false: every page is searchable' }),
    noRobotsIndex: z.boolean().openapi({ description: 'always false' }),
    computed: z.null().openapi({ description: 'no page is computed' }),
    computedSeed: z.null().openapi({ description: 'always null: no page is computed' }),
    tags: z.array(z.unknown()).max(0).openapi({ description: 'GitBook 0.202; always empty: pages have no tags' }),
  })
  .openapi('Page', { description: 'A page of the content, with its body and every page under it' });

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
