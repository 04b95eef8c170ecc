/** The computed values a Space carries: its counters (open comments, change requests by status) and where it is published. */
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { Db } from '../db';
import { columnsOf, hydrate, queryPrepared } from '../rows';
import { Space } from '../../entities/Space';
import { PublishedLocation, publishedLocationExpression, publishedLocationOf } from '../sites/published-location';

export interface SpaceCounters {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
  /** its site space in the oldest published site that shows it; null: in none */
  publishedIn: PublishedLocation | null;
}

/**
 * The counters of the space aliased `alias`, as [expression, column] pairs of the statement that
 * reads it, so a space read or a page of them costs no statement more. `changeRequests` counts every
 * change request whatever its status; `comments` counts the open comments on the space itself
 * (comments on its change requests count on each change request). Never stored, so never stale.
 */
function counterSelects(alias: string): Array<[string, string]> {
  return [
    // one pass over the space's change requests counts all three: "<all> <open> <draft>"
    [
      `(SELECT CONCAT(COUNT(*), ' ', COALESCE(SUM(cr.status = 'open'), 0), ' ', COALESCE(SUM(cr.status = 'draft'), 0)) FROM change_requests cr WHERE cr.spaceId = ${alias}.id)`,
      'counter_changeRequests',
    ],
    [`(SELECT COUNT(*) FROM comments c WHERE c.spaceId = ${alias}.id AND c.changeRequestId IS NULL AND c.status = 'open')`, 'counter_comments'],
    [publishedLocationExpression(alias), 'published_location'],
  ];
}

function counterColumns(alias: string): string {
  return counterSelects(alias)
    .map(([expression, column]) => `${expression} AS ${column}`)
    .join(', ');
}

/** Selects the counters in a query builder's own statement (read them back with `countersOfRows`). */
export function selectCounters<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, alias: string): SelectQueryBuilder<T> {
  for (const [expression, column] of counterSelects(alias)) qb.addSelect(expression, column);
  return qb;
}

/** The counters of rows read with `selectCounters`, by the id of their spaces. */
export function countersOfRows(spaces: Array<{ id: string }>, rows: Array<Record<string, unknown>>): Map<string, SpaceCounters> {
  return new Map(spaces.map((space, i) => [space.id, countersOf(rows[i])]));
}

function countersOf(row: Record<string, unknown>): SpaceCounters {
  const [changeRequests = 0, open = 0, draft = 0] = String(row.counter_changeRequests ?? '').split(' ').map(Number);
  return {
    comments: Number(row.counter_comments ?? 0),
    changeRequests,
    changeRequestsOpen: open,
    changeRequestsDraft: draft,
    publishedIn: publishedLocationOf(row),
  };
}

/** Counters for a page of spaces, in one statement (zeros for an id that is no space). */
export async function spaceCounters(db: Db, spaceIds: string[]): Promise<Map<string, SpaceCounters>> {
  const counters = new Map(spaceIds.map((id) => [id, countersOf({})]));
  if (!spaceIds.length) return counters;
  const rows: Array<Record<string, unknown>> = await db.query(`SELECT x.id AS id, ${counterColumns('x')} FROM spaces x WHERE x.id IN (?)`, [spaceIds]);
  for (const r of rows) counters.set(r.id as string, countersOf(r));
  return counters;
}

/** A live (not soft-deleted) space with its counters, in one statement. */
export async function findSpaceWithCounters(db: Db, spaceId: string): Promise<{ space: Space; counters: SpaceCounters } | null> {
  const rows = await queryPrepared(
    db,
    `SELECT ${columnsOf(db, Space, 'x')}, ${counterColumns('x')} FROM spaces x WHERE x.id = ? AND x.deletedAt IS NULL`,
    [spaceId],
  );
  return rows.length ? { space: hydrate(db, Space, 'x', rows[0]), counters: countersOf(rows[0]) } : null;
}
