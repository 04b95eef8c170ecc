/**
 * Ranking queries over the page documents. A group (a page, or a space) scores its best page's
 * score; groups are ordered by score, best first, ties by id. Scores are cast to a fixed-point
 * decimal so the keyset cursor can carry them exactly.
 */
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { SearchPage } from '../../entities/SearchPage';
import type { SearchSection } from '../../entities/SearchSection';
import type { Db } from '../../platform/db/transactions';
import type { SectionMatch } from './matcher';

const SCORE_TYPE = 'DECIMAL(30,12)';

export interface RankPosition {
  /** the score as the exact decimal text the database returned */
  score: string;
  id: string;
}

export interface RankedPage {
  rows: RankPosition[];
  count: number;
  /** more groups follow the last row */
  more: boolean;
}

/** Pages as full-text documents; the alias `ss` is the one match conditions use. */
export function pagesQuery(db: Db): SelectQueryBuilder<SearchPage> {
  return db.createQueryBuilder(SearchPage, 'ss');
}

/**
 * One page of groups of matching pages of `base`, after `after` in rank order. One pass over the
 * matches: the groups are ranked once, and their number comes from a window over the same pass.
 */
export async function rankGroups<T extends ObjectLiteral>(
  base: SelectQueryBuilder<T>,
  match: SectionMatch,
  groupColumn: 'ss.pageId' | 'ss.spaceId',
  page: { after?: RankPosition; limit: number },
): Promise<RankedPage> {
  const matching = base.clone().andWhere(match.condition, match.params);
  const countAll = async () =>
    Number(
      (await matching.clone().select(`COUNT(DISTINCT ${groupColumn})`, 'n').getRawOne<{ n: string | number }>())?.n ??
        0,
    );
  const grouped = () =>
    matching
      .clone()
      .select(groupColumn, 'id')
      .addSelect(`CAST(MAX(${match.score}) AS ${SCORE_TYPE})`, 'score')
      .addSelect('COUNT(*) OVER ()', 'total')
      .groupBy(groupColumn)
      .getQueryAndParameters();
  return rankedPage(base.connection.manager, grouped, countAll, page);
}

/**
 * `rankGroups` for the pages of one space, as one hand-written statement: the space search is a hot
 * read, and building it with the query builder cost more CPU than MariaDB spends ranking.
 */
export async function rankPagesOfSpace(
  db: Db,
  match: SectionMatch,
  spaceId: string,
  page: { after?: RankPosition; limit: number },
): Promise<RankedPage> {
  // the match's `:name` parameters as `?`, by the driver's own escaping (as the query builder does)
  const [condition, conditionParams] = db.connection.driver.escapeQueryWithParameters(match.condition, match.params);
  const [score, scoreParams] = db.connection.driver.escapeQueryWithParameters(match.score, match.params);
  const countAll = async () => {
    const [row]: Array<{ n: string | number }> = await db.query(
      `SELECT COUNT(DISTINCT ss.pageId) AS n FROM search_pages ss WHERE ss.spaceId = ? AND ${condition}`,
      [spaceId, ...conditionParams],
    );
    return Number(row.n);
  };
  const grouped = (): [string, unknown[]] => [
    spacePagesGroupedSql(condition, score),
    [...scoreParams, spaceId, ...conditionParams],
  ];
  return rankedPage(db, grouped, countAll, page);
}

/**
 * The pages of one space matching `condition`, each with its best section's `score` and the number of pages
 * (parameters: the score's, the space id, the condition's). The benchmark's full-text floor runs the same text.
 */
export const spacePagesGroupedSql = (condition: string, score: string): string =>
  `SELECT ss.pageId AS id, CAST(MAX(${score}) AS ${SCORE_TYPE}) AS score, COUNT(*) OVER () AS total FROM search_pages ss WHERE ss.spaceId = ? AND ${condition} GROUP BY ss.pageId`;

/** `grouped` ordered by score, then id, and cut (its parameters, then the keyset's when `after`, then the limit). */
export const rankedSql = (grouped: string, after: boolean): string =>
  `SELECT g.id, g.score, g.total FROM (${grouped}) g${after ? ` WHERE (g.score < CAST(? AS ${SCORE_TYPE}) OR (g.score = CAST(? AS ${SCORE_TYPE}) AND g.id > ?))` : ''} ORDER BY g.score DESC, g.id ASC LIMIT ?`;

/** The sections of the listed pages (parameters: their spaces' ids, their ids), read by primary key. */
export const SECTIONS_OF_PAGES_SQL =
  'SELECT spaceId, pageId, ordinal, anchor, title, body FROM search_sections WHERE spaceId IN (?) AND pageId IN (?)';

/** Orders the groups of `grouped` (columns id, score, total) and cuts the page after `after`. */
async function rankedPage(
  db: Db,
  grouped: () => [string, unknown[]],
  countAll: () => Promise<number>,
  page: { after?: RankPosition; limit: number },
): Promise<RankedPage> {
  if (page.limit === 0) {
    const count = await countAll();
    return { rows: [], count, more: count > 0 };
  }
  const [sql, params] = grouped();
  const afterParams = page.after ? [page.after.score, page.after.score, page.after.id] : [];
  const rows: Array<RankPosition & { total: string | number }> = await db.query(rankedSql(sql, !!page.after), [
    ...params,
    ...afterParams,
    page.limit + 1,
  ]);
  // the window counts every group; past the last one (no rows) it has to be counted apart
  const count = rows.length ? Number(rows[0].total) : page.after ? await countAll() : 0;
  return {
    rows: rows.slice(0, page.limit).map((r) => ({ id: r.id, score: String(r.score) })),
    count,
    more: rows.length > page.limit,
  };
}

/** The best `perSpace` matching pages of each space, best first. */
export async function topPagesOfSpaces(
  db: Db,
  match: SectionMatch,
  spaceIds: string[],
  perSpace: number,
): Promise<Array<{ spaceId: string; pageId: string; score: number; pagesInSpace: number }>> {
  if (!spaceIds.length) return [];
  const inner = pagesQuery(db)
    .select('ss.spaceId', 'spaceId')
    .addSelect('ss.pageId', 'pageId')
    .addSelect(`MAX(${match.score})`, 'score')
    .addSelect(`ROW_NUMBER() OVER (PARTITION BY ss.spaceId ORDER BY MAX(${match.score}) DESC, ss.pageId ASC)`, 'rn')
    // every matching page of the space, shown or not: from the same pass
    .addSelect('COUNT(*) OVER (PARTITION BY ss.spaceId)', 'pagesInSpace')
    .where('ss.spaceId IN (:...spaceIds)', { spaceIds })
    .andWhere(match.condition, match.params)
    .groupBy('ss.spaceId')
    .addGroupBy('ss.pageId');
  const [sql, params] = inner.getQueryAndParameters();
  const rows: Array<{ spaceId: string; pageId: string; score: string | number; pagesInSpace: string | number }> =
    await db.query(
      `SELECT r.spaceId, r.pageId, r.score, r.pagesInSpace FROM (${sql}) r WHERE r.rn <= ? ORDER BY r.spaceId, r.rn`,
      [...params, perSpace],
    );
  return rows.map((r) => ({
    spaceId: r.spaceId,
    pageId: r.pageId,
    score: Number(r.score),
    pagesInSpace: Number(r.pagesInSpace),
  }));
}

type SectionFields = Pick<SearchSection, 'spaceId' | 'pageId' | 'ordinal' | 'anchor' | 'title' | 'body'>;

export interface SectionRow {
  /** relevance among the page's sections, scored in the application */
  score: number;
  spaceId: string;
  pageId: string;
  ordinal: number;
  anchor: string;
  title: string;
  body: string;
}

/**
 * The best `perPage` matching sections of each listed page, best first (ties by position in the
 * page). The few listed pages' sections are read by primary key and scored here: asking the
 * full-text index again would enumerate every match of the query a second time.
 */
export async function topSectionsOfPages(
  db: Db,
  match: SectionMatch,
  pages: Array<{ spaceId: string; pageId: string }>,
  perPage: number,
): Promise<SectionRow[]> {
  if (!pages.length) return [];
  const wanted = new Set(pages.map((p) => `${p.spaceId}/${p.pageId}`));
  const rows: SectionFields[] = await db.query(SECTIONS_OF_PAGES_SQL, [
    [...new Set(pages.map((p) => p.spaceId))],
    [...new Set(pages.map((p) => p.pageId))],
  ]);
  const byPage = new Map<string, Array<{ row: SectionFields; score: number }>>();
  for (const row of rows) {
    const key = `${row.spaceId}/${row.pageId}`;
    if (!wanted.has(key)) continue;
    const scored = byPage.get(key) ?? [];
    scored.push({ row, score: match.rank(row.title, row.body) });
    byPage.set(key, scored);
  }
  return [...byPage.values()].flatMap((list) => {
    const hits = list.filter((s) => s.score > 0);
    // the index may match where plain text does not (accents, collation): show the page's opening section then
    const shown = hits.length
      ? hits
      : list.filter((s) => s.row.ordinal === Math.min(...list.map((l) => l.row.ordinal)));
    return shown
      .sort((a, b) => b.score - a.score || a.row.ordinal - b.row.ordinal)
      .slice(0, perPage)
      .map(({ row, score }) => ({
        score,
        spaceId: row.spaceId,
        pageId: row.pageId,
        ordinal: row.ordinal,
        anchor: row.anchor,
        title: row.title,
        body: row.body,
      }));
  });
}
