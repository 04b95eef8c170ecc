/** The computed values a Space carries: its counters (open comments, change requests by status) and where it is published. */

import { Space } from '../../entities/Space';
import { columnsOf, hydrate, queryPrepared } from '../../platform/db/rows';
import type { Db } from '../../platform/db/transactions';
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
 * `changeRequests` counts every change request whatever its status; `comments` counts the open
 * comments on the space itself (comments on its change requests count on each change request).
 * They are the space's own columns, kept by the writes (counter-changes.ts); where the space is
 * published is read with it, as a column of the statement that reads it.
 */
function countersOf(space: Space, row: Record<string, unknown>): SpaceCounters {
  return {
    comments: space.openCommentsCount,
    changeRequests: space.changeRequestsCount,
    changeRequestsOpen: space.changeRequestsOpenCount,
    changeRequestsDraft: space.changeRequestsDraftCount,
    publishedIn: publishedLocationOf(row),
  };
}

const PUBLISHED_LOCATION = 'published_location';

/** What a statement reading spaces selects beside them for their counters, [expression, name] (read them back with `countersOfRows`). */
export function counterSelects(alias: string): Array<[string, string]> {
  return [[publishedLocationExpression(alias), PUBLISHED_LOCATION]];
}

/** The counters of spaces read with `counterSelects`, by their ids (`rows`: their raw rows, aligned with them). */
export function countersOfRows(spaces: Space[], rows: Array<Record<string, unknown>>): Map<string, SpaceCounters> {
  return new Map(spaces.map((space, i) => [space.id, countersOf(space, rows[i])]));
}

/** Counters for spaces already read, in one statement (where they are published). */
export async function spaceCounters(db: Db, spaces: Space[]): Promise<Map<string, SpaceCounters>> {
  if (!spaces.length) return new Map();
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT x.id AS id, ${publishedLocationExpression('x')} AS ${PUBLISHED_LOCATION} FROM spaces x WHERE x.id IN (?)`,
    [spaces.map((s) => s.id)],
  );
  const published = new Map(rows.map((r) => [r.id as string, r]));
  return new Map(spaces.map((space) => [space.id, countersOf(space, published.get(space.id) ?? {})]));
}

/** A live (not soft-deleted) space with its counters, in one statement. */
export async function findSpaceWithCounters(
  db: Db,
  spaceId: string,
): Promise<{ space: Space; counters: SpaceCounters } | null> {
  const rows = await queryPrepared(
    db,
    `SELECT ${columnsOf(db, Space, 'x')}, ${publishedLocationExpression('x')} AS ${PUBLISHED_LOCATION} FROM spaces x WHERE x.id = ? AND x.deletedAt IS NULL`,
    [spaceId],
  );
  if (!rows.length) return null;
  const space = hydrate(db, Space, 'x', rows[0]);
  return { space, counters: countersOf(space, rows[0]) };
}
