/**
 * Keyset pagination (page N costs what page 1 costs): the cursor holds the last row's sort values plus its id, signed
 * with HMAC and bound to the list it came from, so page N costs what page 1 costs and a forged or
 * foreign cursor is a 400.
 */
import { createHmac, timingSafeEqual } from 'crypto';
import type { EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { badRequest } from '../../domain/errors';
import { columnsOf, hydrate, queryPrepared } from '../../platform/db/rows';
import type { Db } from '../../platform/db/transactions';

export interface SortKey<T> {
  /** SQL expression, e.g. `m.joinedAt`. */
  column: string;
  direction: 'ASC' | 'DESC';
  value: (row: T) => string | number | Date;
}

export interface PageRequest {
  limit?: number;
  page?: string;
  /** Names the list and its filters; a cursor only works for the same scope. */
  scope: string;
}

export interface Page<T> {
  items: T[];
  count: number;
  next?: { page: string };
  /** The items' raw rows, aligned with them, with the columns selected beside the entity's (`paginateStatement`). */
  rows?: Array<Record<string, unknown>>;
}

export const DEFAULT_LIMIT = 50;

type Encoded = { t: 'd' | 'v'; v: string | number };

function sign(secret: string, payload: string, scope: string): string {
  return createHmac('sha256', secret).update(scope).update('\n').update(payload).digest('base64url');
}

export function encodeCursor(secret: string, scope: string, values: Array<string | number | Date>): string {
  const enc: Encoded[] = values.map((v) => (v instanceof Date ? { t: 'd', v: v.toISOString() } : { t: 'v', v }));
  const payload = Buffer.from(JSON.stringify(enc)).toString('base64url');
  return `${payload}.${sign(secret, payload, scope)}`;
}

export function decodeCursor(
  secret: string,
  scope: string,
  cursor: string,
  arity: number,
): Array<string | number | Date> {
  const invalid = badRequest('page: invalid or expired cursor');
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined) throw invalid;
  const expected = Buffer.from(sign(secret, payload, scope));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid;
  let enc: Encoded[];
  try {
    enc = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(enc) || enc.length !== arity) throw invalid;
  return enc.map((e) => (e.t === 'd' ? new Date(String(e.v)) : e.v));
}

/** The rows after a cursor's values: (k1 > v1) OR (k1 = v1 AND k2 > v2) OR ..., each key in its own direction. */
function keysetAfter<T>(
  keys: SortKey<T>[],
  values: Array<string | number | Date>,
): { condition: string; params: Record<string, unknown> } {
  const ors: string[] = [];
  const params: Record<string, unknown> = {};
  keys.forEach((_, i) => {
    const ands = keys.slice(0, i).map((k, j) => `${k.column} = :cur${j}`);
    ands.push(`${keys[i].column} ${keys[i].direction === 'ASC' ? '>' : '<'} :cur${i}`);
    ors.push(`(${ands.join(' AND ')})`);
    params[`cur${i}`] = values[i];
  });
  return { condition: `(${ors.join(' OR ')})`, params };
}

/** The next-page cursor of a page read with one row more than its limit. */
function nextOf<T>(rows: T[], limit: number, keys: SortKey<T>[], req: PageRequest, secret: string): Page<T>['next'] {
  if (rows.length <= limit || !limit) return undefined;
  return nextAfter(rows[limit - 1], keys, req, secret);
}

/** The cursor of the page after the one that ends with `last`. */
function nextAfter<T>(last: T, keys: SortKey<T>[], req: PageRequest, secret: string): NonNullable<Page<T>['next']> {
  return {
    page: encodeCursor(
      secret,
      req.scope,
      keys.map((k) => k.value(last)),
    ),
  };
}

/**
 * The rows of a query without joins that selects its whole entity, and the entities, one per row.
 * Run as a prepared statement (platform/db/rows.ts) and hydrated column by column: MariaDB no longer
 * parses a list's long statement on every request, and TypeORM's mapping of the rows is skipped.
 */
async function alignedRows<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
): Promise<{ entities: T[]; raw: Array<Record<string, unknown>> }> {
  const main = qb.expressionMap.mainAlias!;
  // in a transaction (a builder of a transaction's manager holds its runner), on its connection as TypeORM runs it; a partial select, mapped by TypeORM
  const inTransaction = !!(qb as unknown as { queryRunner?: unknown }).queryRunner;
  if (inTransaction || !main.hasMetadata || !qb.expressionMap.selects.some((s) => s.selection === main.name))
    return qb.getRawAndEntities();
  const [sql, params] = qb.getQueryAndParameters();
  const raw = await queryPrepared(qb.connection.manager, sql, params);
  return { entities: raw.map((row) => hydrate(qb.connection.manager, main.metadata.target, main.name, row) as T), raw };
}

/**
 * Runs `qb` as one page. `keys` must end with a unique key (the id) so the order is total.
 * The count is of every matching row, independent of the cursor: on a first page of a query without
 * joins a subquery counts them in the page's own statement, otherwise a second statement does.
 */
export async function paginate<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  keys: SortKey<T>[],
  req: PageRequest,
  secret: string,
): Promise<Page<T>> {
  const limit = req.limit ?? DEFAULT_LIMIT;
  // without joins an entity is one raw row, so the raw rows line up with the items
  const aligned = !qb.expressionMap.joinAttributes.length;
  const countInPage = !req.page && limit > 0 && aligned;
  const paged = qb.clone();
  if (req.page) {
    const after = keysetAfter(keys, decodeCursor(secret, req.scope, req.page, keys.length));
    paged.andWhere(after.condition, after.params);
  }
  for (const [i, k] of keys.entries()) {
    if (i === 0) paged.orderBy(k.column, k.direction);
    else paged.addOrderBy(k.column, k.direction);
  }
  let rows: T[] = [];
  let count: number;
  if (countInPage) {
    // an uncorrelated subquery, run once: a window (COUNT(*) OVER ()) cost MariaDB a temporary table, 0.2 ms
    const counted = qb.clone().select('COUNT(*)').orderBy();
    const page = await alignedRows(paged.addSelect(`(${counted.getQuery()})`, 'page_total').limit(limit + 1));
    rows = page.entities;
    count = page.raw.length ? Number(page.raw[0].page_total) : 0;
  } else {
    count = await qb.clone().getCount();
    if (limit > 0 && aligned) rows = (await alignedRows(paged.limit(limit + 1))).entities;
    else if (limit > 0) rows = await paged.limit(limit + 1).getMany();
  }
  const next = nextOf(rows, limit, keys, req, secret);
  return { items: rows.slice(0, limit), count, ...(next ? { next } : {}) };
}

/**
 * A list's statement written by hand, for the hottest lists: what `paginate` runs for a query
 * builder, without building the SQL through TypeORM on every request (36 µs for the space list).
 * `where` and the `selects` take named parameters (`:name`), as the query builder does.
 */
export interface ListStatement<T extends ObjectLiteral> {
  db: Db;
  entity: EntityTarget<T>;
  /** the alias of the entity's table in `from` and `where` */
  alias: string;
  /** `table alias` */
  from: string;
  where: string;
  params: Record<string, unknown>;
  /** the entity's properties to select (default: all); its items then hold only those */
  columns?: readonly string[];
  /** columns selected beside the entity's, [expression, name]; read back from the page's `rows` */
  selects?: Array<[string, string]>;
}

/** `paginate` for a hand-written list statement: the same page, count and cursors. */
export async function paginateStatement<T extends ObjectLiteral>(
  list: ListStatement<T>,
  keys: SortKey<T>[],
  req: PageRequest,
  secret: string,
): Promise<Page<T> & Required<Pick<Page<T>, 'rows'>>> {
  const limit = req.limit ?? DEFAULT_LIMIT;
  const { db, alias, from } = list;
  const run = async (sql: string, params: Record<string, unknown>) => {
    const [text, values] = db.connection.driver.escapeQueryWithParameters(sql, params);
    return queryPrepared(db, text, values);
  };
  const countSql = `SELECT COUNT(*) FROM ${from} WHERE ${list.where}`;
  const after = req.page ? keysetAfter(keys, decodeCursor(secret, req.scope, req.page, keys.length)) : null;
  let raw: Array<Record<string, unknown>> = [];
  let count: number;
  if (limit > 0) {
    const selects = [
      ...(list.selects ?? []),
      ...(after ? [] : ([[`(${countSql})`, 'page_total']] as Array<[string, string]>)),
    ];
    const sql =
      `SELECT ${columnsOf(db, list.entity, alias, list.columns)}${selects.map(([expression, name]) => `, ${expression} AS \`${name}\``).join('')}` +
      ` FROM ${from} WHERE ${list.where}${after ? ` AND ${after.condition}` : ''}` +
      ` ORDER BY ${keys.map((k) => `${k.column} ${k.direction}`).join(', ')} LIMIT ${limit + 1}`;
    raw = await run(sql, { ...list.params, ...after?.params });
  }
  // a first page counts in its own statement (an uncorrelated subquery, run once); a later one, or none, apart
  if (limit > 0 && !after) count = raw.length ? Number(raw[0].page_total) : 0;
  else count = Number(Object.values((await run(countSql, list.params))[0])[0]);
  // the items are made from their rows when first read: an answer remembered with its rows (api/answers-of-rows.ts)
  // needs none of them, and a cursor only the last
  const rows = raw.slice(0, limit);
  const last = raw.length > limit && limit ? hydrate(db, list.entity, alias, raw[limit - 1], list.columns) : undefined;
  const next = last ? nextAfter(last, keys, req, secret) : undefined;
  let items: T[] | undefined;
  return {
    get items() {
      items ??= rows.map((row) => hydrate(db, list.entity, alias, row, list.columns));
      return items;
    },
    count,
    rows,
    ...(next ? { next } : {}),
  };
}

export type MemoryKey = Array<string | number>;

const compareKeys = (a: MemoryKey, b: MemoryKey): number => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
};

export interface MemoryOrder<T> {
  key: (item: T) => MemoryKey;
  /** how many values a key has (the cursor must hold as many) */
  arity: number;
  /** the order the list is sorted in; default: each value ascending */
  compare?: (a: MemoryKey, b: MemoryKey) => number;
}

/**
 * The same keyset pagination over a list computed in memory, sorted ascending by `order`: the
 * signed cursor holds the last key given, so items added or removed between pages shift nothing.
 */
export function pageInMemory<T>(sorted: T[], order: MemoryOrder<T>, req: PageRequest, secret: string): Page<T> {
  const { key: keyOf, compare = compareKeys } = order;
  const limit = req.limit ?? DEFAULT_LIMIT;
  let start = 0;
  if (req.page) {
    const after = decodeCursor(secret, req.scope, req.page, order.arity);
    if (after.some((v) => typeof v !== 'string' && typeof v !== 'number'))
      throw badRequest('page: invalid or expired cursor');
    const index = sorted.findIndex((item) => compare(keyOf(item), after as MemoryKey) > 0);
    start = index === -1 ? sorted.length : index;
  }
  const items = sorted.slice(start, start + limit);
  const last = items[items.length - 1];
  const page: Page<T> = { items, count: sorted.length };
  if (start + limit < sorted.length && last !== undefined)
    page.next = { page: encodeCursor(secret, req.scope, keyOf(last)) };
  return page;
}
