/**
 * Space and organization search (indexes kept current by the content indexer in the transaction
 * that moves a space's head). Pages are ranked as whole full-text documents; each result then
 * shows its best matching sections, with its title and path in the space's current revision.
 */
import { In } from 'typeorm';
import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import type { ViewableContent } from '../access/authorize';
import { whereSpaceViewable } from '../access/viewable';
import { ObjectStore } from '../content/objects';
import { ContentReader } from '../content/reader';
import { excerpt } from './excerpt';
import { SectionMatch, sectionMatch } from './matcher';
import { pageLocations } from './page-paths';
import {
  pagesQuery,
  RankPosition,
  rankGroups,
  rankPagesOfSpace,
  topPagesOfSpaces,
  topSectionsOfPages,
} from './queries';

/** Matching sections shown per page, and matching pages shown per space in organization search. */
export const SECTIONS_PER_PAGE = 5;
export const PAGES_PER_SPACE = 5;

export interface SectionResult {
  /** relevance among the page's sections (higher is better) */
  score: number;
  ordinal: number;
  anchor: string;
  title: string;
  /** the section body around the first match */
  body: string;
}

export interface PageResult {
  id: string;
  title: string;
  path: string;
  /** titles of the pages above it, top level first */
  ancestors: string[];
  /** its description, empty when it has none */
  description: string;
  /** full-text relevance (higher is better) */
  score: number;
  sections: SectionResult[];
}

export interface SpaceResult {
  space: Space;
  /** its best page's score */
  score: number;
  /** its best pages, at most PAGES_PER_SPACE */
  pages: PageResult[];
  /** how many of its pages match, those not shown included */
  matchingPages: number;
}

export interface SearchPage<T> {
  items: T[];
  /** number of matching groups (pages, or spaces) */
  count: number;
  /** where the next page starts, when there is one */
  next?: RankPosition;
}

export interface SearchRequest {
  query: string;
  after?: RankPosition;
  limit: number;
}

/** A space to search with the root of its current revision (null: it has no content yet). */
export interface SearchedSpace {
  space: Space;
  root: string | null;
}

/** One page of a space's results (the API remembers its answers by head revision: api/remembered-answers.ts). */
export async function searchSpace(
  db: Db,
  searched: SearchedSpace,
  req: SearchRequest,
): Promise<SearchPage<PageResult>> {
  const { space } = searched;
  const match = await sectionMatch(db, req.query);
  const ranked = await rankPagesOfSpace(db, match, space.id, req);
  const pages = await pageResults(
    db,
    match,
    [searched],
    ranked.rows.map((r) => ({ spaceId: space.id, pageId: r.id, score: Number(r.score) })),
  );
  return {
    items: ranked.rows.flatMap((r) => pages.get(space.id)?.get(r.id) ?? []),
    count: ranked.count,
    ...(ranked.more && ranked.rows.length ? { next: ranked.rows[ranked.rows.length - 1] } : {}),
  };
}

/** Search over the live spaces of an organization that the caller can view, grouped by space. */
export async function searchOrganization(
  db: Db,
  organizationId: string,
  viewable: ViewableContent,
  req: SearchRequest,
): Promise<SearchPage<SpaceResult>> {
  const match = await sectionMatch(db, req.query);
  const base = pagesQuery(db)
    .innerJoin(Space, 's', 's.id = ss.spaceId')
    .where('s.organizationId = :organizationId', { organizationId })
    .andWhere('s.deletedAt IS NULL');
  const ranked = await rankGroups(whereSpaceViewable(base, 's', viewable), match, 'ss.spaceId', req);
  const spaceIds = ranked.rows.map((r) => r.id);
  const spaces = spaceIds.length ? await db.findBy(Space, { id: In(spaceIds) }) : [];
  const revisionIds = spaces.map((s) => s.revisionId).filter((id): id is string => !!id);
  const roots = new Map(
    (revisionIds.length ? await db.findBy(Revision, { id: In(revisionIds) }) : []).map((r) => [r.id, r.root]),
  );
  const searched = spaces.map((space) => ({ space, root: (space.revisionId && roots.get(space.revisionId)) || null }));
  const top = await topPagesOfSpaces(db, match, spaceIds, PAGES_PER_SPACE);
  const matchingPages = new Map(top.map((t) => [t.spaceId, t.pagesInSpace]));
  const pages = await pageResults(db, match, searched, top);
  const byId = new Map(spaces.map((s) => [s.id, s]));
  return {
    items: ranked.rows.flatMap((r) => {
      const space = byId.get(r.id);
      if (!space) return [];
      const shown = [...(pages.get(space.id)?.values() ?? [])];
      return [
        { space, score: Number(r.score), pages: shown, matchingPages: matchingPages.get(space.id) ?? shown.length },
      ];
    }),
    count: ranked.count,
    ...(ranked.more && ranked.rows.length ? { next: ranked.rows[ranked.rows.length - 1] } : {}),
  };
}

/**
 * The listed pages with their best sections, title and path, by space then page id, in the order
 * given. A page no longer in its space's current revision (a head moved meanwhile) is left out.
 */
async function pageResults(
  db: Db,
  match: SectionMatch,
  spaces: SearchedSpace[],
  wanted: Array<{ spaceId: string; pageId: string; score: number }>,
): Promise<Map<string, Map<string, PageResult>>> {
  const out = new Map<string, Map<string, PageResult>>();
  if (!wanted.length) return out;
  const sections = await topSectionsOfPages(db, match, wanted, SECTIONS_PER_PAGE);
  const store = new ObjectStore(db);
  for (const { space, root } of spaces) {
    if (!root) continue;
    const inSpace = wanted.filter((w) => w.spaceId === space.id);
    const locations = await pageLocations(
      new ContentReader(store, root),
      inSpace.map((w) => w.pageId),
    );
    const results = new Map<string, PageResult>();
    for (const { pageId, score } of inSpace) {
      const location = locations.get(pageId);
      if (location) results.set(pageId, { id: pageId, ...location, score, sections: [] });
    }
    out.set(space.id, results);
  }
  for (const s of sections) {
    out
      .get(s.spaceId)
      ?.get(s.pageId)
      ?.sections.push({
        score: s.score,
        ordinal: s.ordinal,
        anchor: s.anchor,
        title: s.title,
        body: excerpt(s.body, match.locate),
      });
  }
  return out;
}
