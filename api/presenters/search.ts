import { z } from 'zod';
import { PAGES_PER_SPACE, type PageResult, type SpaceResult } from '../../domain/search/search';
import type { Space } from '../../entities/Space';
import type { Presented } from '../../platform/wire/to-wire';
import { listSchema } from './common';
import { pageAppUrl } from './page';
import type { Urls } from './urls';

const score = z.number().min(0);

export const searchSectionSchema = z
  .object({
    id: z
      .string()
      .openapi({ description: '`<pageId>/<anchor>`, or `<pageId>/<position>` for the text before the first heading' }),
    title: z
      .string()
      .openapi({ description: "the section's heading; the page's title for the text before the first heading" }),
    path: z.string().openapi({ description: "the page's path, with `#anchor` for a heading's section" }),
    body: z.string().openapi({ description: 'about 500 characters of the section around the first match' }),
    score: score.openapi({ description: "GitBook 0.202: relevance among the page's sections, higher is better" }),
    urls: z
      .object({ app: z.string().openapi({ description: "the section in the app: the page's URL with the anchor" }) })
      .openapi({ description: 'where to open the section' }),
  })
  .openapi('SearchSectionResult', {
    description: 'one matching section of a page: its heading, where it is, an excerpt',
  });

export const searchPageSchema = z
  .object({
    id: z.string().openapi({ description: 'id of the page' }),
    title: z.string().openapi({ description: "the page's title" }),
    description: z.string().openapi({ description: "GitBook 0.202: the page's description, empty when it has none" }),
    path: z.string().openapi({ description: "the page's path in the space, its slugs joined by `/`" }),
    score: score.openapi({ description: 'GitBook 0.202: full-text relevance, higher is better' }),
    rank: z.number().int().min(1).openapi({
      description:
        'GitBook 0.202: one-based position among all results, kept across pages of the list (organization search: space by space, in the order answered)',
    }),
    ancestors: z
      .array(z.object({ title: z.string().openapi({ description: "an ancestor page's title" }) }))
      .openapi({ description: 'GitBook 0.202: the pages above it, top level first' }),
    sections: z
      .array(searchSectionSchema)
      .openapi({ description: 'its best matching sections, best first: at most 5' }),
    urls: z
      .object({ app: z.string().openapi({ description: 'the page in the app' }) })
      .openapi({ description: 'where to open the page' }),
  })
  .openapi('SearchPageResult', { description: 'one matching page, with its best matching sections' });

export const searchSpaceSchema = z
  .object({
    type: z.literal('space').openapi({ description: 'GitBook 0.202: always `space`, what this result is' }),
    id: z.string().openapi({ description: 'id of the space' }),
    title: z.string().openapi({ description: "the space's title" }),
    score: score.openapi({ description: "GitBook 0.202: its best page's score" }),
    pages: z.array(searchPageSchema).openapi({
      description: `its best matching pages, best first: at most ${PAGES_PER_SPACE}; \`morePages\` says when there are more`,
    }),
    matchingPages: z.number().int().min(1).openapi({
      description:
        'extension: how many pages of the space match, those not shown included; search the space itself (GET /v1/spaces/{spaceId}/search) to list them all',
    }),
    morePages: z.boolean().openapi({
      description: 'extension: true when the space has more matching pages than `pages` shows',
    }),
  })
  .openapi('SearchSpaceResult', { description: 'one space with matching pages, and its best pages' });

export const spaceSearchListSchema = listSchema(searchPageSchema);
export const organizationSearchListSchema = listSchema(searchSpaceSchema);

const spaceAppPath = (space: Space): string => `/o/${space.organizationId}/s/${space.id}`;

/** `rank`: the page's one-based position among all results. */
export function presentSearchPage(
  page: PageResult,
  space: Space,
  urls: Urls,
  rank: number,
): Presented<typeof searchPageSchema> {
  const app = pageAppUrl(urls, spaceAppPath(space), page.path);
  return {
    id: page.id,
    title: page.title,
    description: page.description,
    path: page.path,
    score: page.score,
    rank,
    ancestors: page.ancestors.map((title) => ({ title })),
    sections: page.sections.map((s) => {
      const fragment = s.anchor ? `#${s.anchor}` : '';
      return {
        id: `${page.id}/${s.anchor || s.ordinal}`,
        title: s.title,
        path: page.path + fragment,
        body: s.body,
        score: s.score,
        urls: { app: app + fragment },
      };
    }),
    urls: { app },
  };
}

/** `firstRank`: the rank of its first page. */
export function presentSearchSpace(
  result: SpaceResult,
  urls: Urls,
  firstRank: number,
): Presented<typeof searchSpaceSchema> {
  return {
    type: 'space',
    id: result.space.id,
    title: result.space.title,
    score: result.score,
    pages: result.pages.map((p, i) => presentSearchPage(p, result.space, urls, firstRank + i)),
    matchingPages: result.matchingPages,
    morePages: result.matchingPages > result.pages.length,
  };
}
