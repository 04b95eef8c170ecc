/**
 * Full-text search in a space, and in every space of an organization the caller can view (grouped
 * by space). Keyset pages over (best score, id): the cursor carries the exact decimal score.
 */
import { authorize, viewableContent } from '../../../domain/access/authorize';
import { badRequest } from '../../../domain/errors';
import type { RankPosition } from '../../../domain/search/queries';
import { searchOrganization, searchSpace } from '../../../domain/search/search';
import { loadSpaceWithRevision, loadVisibleOrganization } from '../../loaders';
import { DEFAULT_LIMIT, decodeCursor, encodeCursor } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import {
  organizationSearchListSchema,
  presentSearchPage,
  presentSearchSpace,
  spaceSearchListSchema,
} from '../../presenters/search';
import { Urls } from '../../presenters/urls';
import { RememberedAnswers } from '../../remembered-answers';
import { organizationIdParams } from '../orgs/schema';
import { spaceIdParams } from '../spaces/schema';
import { searchQuery } from './schema';

export function searchRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  // a space's results under one head revision, serialized (api/remembered-answers.ts)
  const spaceSearchAnswers = new RememberedAnswers(spaceSearchListSchema, 8 * 2 ** 20);

  /** Where a page of results starts: after a rank position, and after how many page results (their `rank`). */
  function decodePosition(scope: string, page: string | undefined): { after?: RankPosition; ranked: number } {
    if (!page) return { ranked: 0 };
    const [score, id, ranked] = decodeCursor(config.cursorSecret, scope, page, 3);
    if (typeof score !== 'string' || typeof id !== 'string' || typeof ranked !== 'number' || ranked < 0)
      throw badRequest('page: invalid or expired cursor');
    return { after: { score, id }, ranked };
  }

  const nextOf = (scope: string, next: RankPosition | undefined, ranked: number) =>
    next ? { next: { page: encodeCursor(config.cursorSecret, scope, [next.score, next.id, ranked]) } } : {};

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/search',
      operationId: 'searchSpaceContent',
      tags: ['search'],
      summary: "Search the pages of the space's current revision, best match first",
      description:
        "Full-text search over the pages of the space's current revision (never a change request's): any of the query's " +
        'words may match, the last one also as the beginning of a word, as users type (`instal` finds "installation"); ' +
        'a title hit weighs more. Each page comes with its best sections and an excerpt around the first match. Any ' +
        "caller who can view the space may search it; an answer is remembered until the space's content changes. " +
        'Changes nothing.',
      params: spaceIdParams,
      query: searchQuery,
      responses: { 200: { description: 'matching pages with their matching sections', schema: spaceSearchListSchema } },
    },
    async ({ params, query, access }) => {
      const { space, revision } = await loadSpaceWithRevision(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'view');
      const scope = `search:${space.id}:${query.query}`;
      const { after, ranked } = decodePosition(scope, query.page);
      const limit = query.limit ?? DEFAULT_LIMIT;
      // the head revision decides the results; the space's ids their URLs; the rest is the request's
      const key = [space.id, revision?.id ?? '', query.query, query.page ?? '', limit];
      return spaceSearchAnswers.reply(key, async () => {
        const result = await searchSpace(
          ds.manager,
          { space, root: revision?.root ?? null },
          { query: query.query, after, limit },
        );
        return {
          items: result.items.map((p, i) => presentSearchPage(p, space, urls, ranked + i + 1)),
          count: result.count,
          ...nextOf(scope, result.next, ranked + result.items.length),
        };
      });
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/search',
      operationId: 'searchOrganizationContent',
      tags: ['search'],
      summary: 'Search every space of the organization that the caller can view, grouped by space, best match first',
      description:
        'Searches the current content of every space of the organization the caller can view (a guest: the spaces ' +
        'granted to them; deleted spaces never), as the space search matches. Spaces come best first, each with its best ' +
        '5 pages; `matchingPages` and `morePages` say how many more the space search would list. Any member of the ' +
        'organization may call it; the cursor of `next` works for the same caller and query only. Changes nothing.',
      params: organizationIdParams,
      query: searchQuery,
      responses: {
        200: { description: 'matching spaces with their best pages', schema: organizationSearchListSchema },
      },
    },
    async ({ params, query, caller, access }) => {
      const org = await loadVisibleOrganization(access, params.organizationId);
      // what the caller can view is part of the list's identity
      const scope = `org-search:${org.id}:${caller.userId}:${query.query}`;
      const { after, ranked } = decodePosition(scope, query.page);
      const result = await searchOrganization(ds.manager, org.id, await viewableContent(access, org.id), {
        query: query.query,
        after,
        limit: query.limit ?? DEFAULT_LIMIT,
      });
      // pages are ranked in the order answered: space by space, each space's best pages first
      let rank = ranked;
      const items = result.items.map((r) => {
        const presented = presentSearchSpace(r, urls, rank + 1);
        rank += r.pages.length;
        return presented;
      });
      return { status: 200, body: { items, count: result.count, ...nextOf(scope, result.next, rank) } };
    },
  );
}
