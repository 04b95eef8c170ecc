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
 * They are the space's own columns, kept by the writes (counter-changes.ts).
 */
function countersOf(space: Space, publishedIn: PublishedLocation | null): SpaceCounters {
  return {
    comments: space.openCommentsCount,
    changeRequests: space.changeRequestsCount,
    changeRequestsOpen: space.changeRequestsOpenCount,
    changeRequestsDraft: space.changeRequestsDraftCount,
    publishedIn,
  };
}

const IN_SITE = 'in_site';

/**
 * Whether a site shows the space: an index probe, selected with the space. Where it is published is read apart,
 * and only for the spaces a site shows (most are in none): planning that statement's ordered join cost MariaDB
 * about 0.1 ms at every execution, even behind a probe that found nothing, as much as all the rest of a space read.
 */
function inSiteExpression(alias: string): string {
  return `EXISTS (SELECT 1 FROM site_spaces pl_any WHERE pl_any.spaceId = ${alias}.id)`;
}

/** What a statement reading spaces selects beside them, [expression, name]: read back with `publishedLocationsOfRows`. */
export function counterSelects(alias: string): Array<[string, string]> {
  return [[inSiteExpression(alias), IN_SITE]];
}

/** Where spaces are published, by id: one statement, none for no spaces. */
async function publishedLocations(db: Db, spaceIds: string[]): Promise<Map<string, PublishedLocation | null>> {
  if (!spaceIds.length) return new Map();
  const rows: Array<Record<string, unknown>> = await db.query(
    `SELECT x.id AS id, ${publishedLocationExpression('x')} AS published_location FROM spaces x WHERE x.id IN (?)`,
    [spaceIds],
  );
  return new Map(rows.map((row) => [row.id as string, publishedLocationOf(row)]));
}

/**
 * Where the spaces of raw rows read with `counterSelects` (under `alias`) are published, by id: a statement only
 * when a site shows one of them; a space missing from the map is published in none.
 */
export function publishedLocationsOfRows(
  db: Db,
  alias: string,
  rows: Array<Record<string, unknown>>,
): Promise<Map<string, PublishedLocation | null>> {
  return publishedLocations(
    db,
    rows.filter((row) => Number(row[IN_SITE]) === 1).map((row) => row[`${alias}_id`] as string),
  );
}

/** The counters of spaces, by their ids, with where they are published (`publishedLocationsOfRows`). */
export function countersOfSpaces(
  spaces: Space[],
  published: Map<string, PublishedLocation | null>,
): Map<string, SpaceCounters> {
  return new Map(spaces.map((space) => [space.id, countersOf(space, published.get(space.id) ?? null)]));
}

/** Counters for spaces already read: a statement for where they are published. */
export async function spaceCounters(db: Db, spaces: Space[]): Promise<Map<string, SpaceCounters>> {
  return countersOfSpaces(
    spaces,
    await publishedLocations(
      db,
      spaces.map((s) => s.id),
    ),
  );
}

/** A live (not soft-deleted) space with its counters: one statement, two for a space a site shows. */
export async function findSpaceWithCounters(
  db: Db,
  spaceId: string,
): Promise<{ space: Space; counters: SpaceCounters } | null> {
  const rows = await queryPrepared(
    db,
    `SELECT ${columnsOf(db, Space, 'x')}, ${inSiteExpression('x')} AS ${IN_SITE} FROM spaces x WHERE x.id = ? AND x.deletedAt IS NULL`,
    [spaceId],
  );
  if (!rows.length) return null;
  const space = hydrate(db, Space, 'x', rows[0]);
  const published = await publishedLocationsOfRows(db, 'x', rows);
  return { space, counters: countersOf(space, published.get(space.id) ?? null) };
}
