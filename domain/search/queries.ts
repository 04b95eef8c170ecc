/**
 * Ranking queries over search sections. A group (a page, or a space) scores its best section's
 * score; groups are ordered by score, best first, ties by id. Scores are cast to a fixed-point
 * decimal so the keyset cursor can carry them exactly.
 */
import type { SelectQueryBuilder } from 'typeorm';
import type { Db } from '../db';
import { SearchSection } from '../../entities/SearchSection';
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

export function sectionsQuery(db: Db): SelectQueryBuilder<SearchSection> {
  return db.createQueryBuilder(SearchSection, 'ss');
}

/** One page of groups of matching sections of `base`, after `after` in rank order. */
export async function rankGroups(
  base: SelectQueryBuilder<SearchSection>,
  match: SectionMatch,
  groupColumn: 'ss.pageId' | 'ss.spaceId',
  page: { after?: RankPosition; limit: number },
): Promise<RankedPage> {
  const matching = base.clone().andWhere(match.condition, match.params);
  const counted = await matching.clone().select(`COUNT(DISTINCT ${groupColumn})`, 'n').getRawOne<{ n: string | number }>();
  const count = Number(counted?.n ?? 0);
  if (page.limit === 0) return { rows: [], count, more: count > 0 };
  const ranked = matching
    .clone()
    .select(groupColumn, 'id')
    .addSelect(`CAST(MAX(${match.score}) AS ${SCORE_TYPE})`, 'score')
    .groupBy(groupColumn);
  if (page.after) {
    ranked.having(`(score < CAST(:afterScore AS ${SCORE_TYPE}) OR (score = CAST(:afterScore AS ${SCORE_TYPE}) AND ${groupColumn} > :afterId))`, {
      afterScore: page.after.score,
      afterId: page.after.id,
    });
  }
  const rows = await ranked.orderBy('score', 'DESC').addOrderBy('id', 'ASC').limit(page.limit + 1).getRawMany<RankPosition>();
  return { rows: rows.slice(0, page.limit).map((r) => ({ id: r.id, score: String(r.score) })), count, more: rows.length > page.limit };
}

/** The best `perSpace` matching pages of each space, best first. */
export async function topPagesOfSpaces(db: Db, match: SectionMatch, spaceIds: string[], perSpace: number): Promise<Array<{ spaceId: string; pageId: string }>> {
  if (!spaceIds.length) return [];
  const inner = sectionsQuery(db)
    .select('ss.spaceId', 'spaceId')
    .addSelect('ss.pageId', 'pageId')
    .addSelect(`ROW_NUMBER() OVER (PARTITION BY ss.spaceId ORDER BY MAX(${match.score}) DESC, ss.pageId ASC)`, 'rn')
    .where('ss.spaceId IN (:...spaceIds)', { spaceIds })
    .andWhere(match.condition, match.params)
    .groupBy('ss.spaceId')
    .addGroupBy('ss.pageId');
  const [sql, params] = inner.getQueryAndParameters();
  return db.query(`SELECT r.spaceId, r.pageId FROM (${sql}) r WHERE r.rn <= ? ORDER BY r.spaceId, r.rn`, [...params, perSpace]);
}

export interface SectionRow {
  spaceId: string;
  pageId: string;
  ordinal: number;
  anchor: string;
  title: string;
  body: string;
}

/** The best `perPage` matching sections of each listed page, best first (ties by position in the page). */
export async function topSectionsOfPages(db: Db, match: SectionMatch, pages: Array<{ spaceId: string; pageId: string }>, perPage: number): Promise<SectionRow[]> {
  if (!pages.length) return [];
  const wanted = new Set(pages.map((p) => `${p.spaceId}/${p.pageId}`));
  const inner = sectionsQuery(db)
    .select(['ss.spaceId AS spaceId', 'ss.pageId AS pageId', 'ss.ordinal AS ordinal', 'ss.anchor AS anchor', 'ss.title AS title', 'ss.body AS body'])
    .addSelect(`ROW_NUMBER() OVER (PARTITION BY ss.spaceId, ss.pageId ORDER BY ${match.score} DESC, ss.ordinal ASC)`, 'rn')
    // a superset of the wanted pairs (duplicated spaces share page ids), narrowed below
    .where('ss.spaceId IN (:...spaceIds)', { spaceIds: [...new Set(pages.map((p) => p.spaceId))] })
    .andWhere('ss.pageId IN (:...pageIds)', { pageIds: [...new Set(pages.map((p) => p.pageId))] })
    .andWhere(match.condition, match.params);
  const [sql, params] = inner.getQueryAndParameters();
  const rows: SectionRow[] = await db.query(`SELECT r.spaceId, r.pageId, r.ordinal, r.anchor, r.title, r.body FROM (${sql}) r WHERE r.rn <= ? ORDER BY r.spaceId, r.pageId, r.rn`, [
    ...params,
    perPage,
  ]);
  return rows.filter((r) => wanted.has(`${r.spaceId}/${r.pageId}`));
}
