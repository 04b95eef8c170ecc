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
    title: z.string(),
    path: z.string().openapi({ description: "the page's path, with `#anchor` for a heading's section" }),
    body: z.string().openapi({ description: 'about 500 characters of the section around the first match' }),
    score: score.openapi({ description: "GitBook 0.202: relevance among the page's sections, higher is better" }),
    urls: z.object({ app: z.string() }),
  })
  .openapi('SearchSectionResult');

export const searchPageSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string().openapi({ description: "GitBook 0.202: the page's description, empty when it has none" }),
    path: z.string(),
    score: score.openapi({ description: 'GitBook 0.202: full-text relevance, higher is better' }),
    rank: z.number().int().min(1).openapi({
      description:
        'GitBook 0.202: one-based position among all results, kept across pages of the list (organization search: space by space, in the order answered)',
    }),
    ancestors: z
      .array(z.object({ title: z.string() }))
      .openapi({ description: 'GitBook 0.202: the pages above it, top level first' }),
    sections: z.array(searchSectionSchema),
    urls: z.object({ app: z.string() }),
  })
  .openapi('SearchPageResult');

export const searchSpaceSchema = z
  .object({
    type: z.literal('space').openapi({ description: 'GitBook 0.202' }),
    id: z.string().openapi({ description: 'space id' }),
    title: z.string(),
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
  .openapi('SearchSpaceResult');

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
