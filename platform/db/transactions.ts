import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, QueryDeepPartialEntity } from 'typeorm';
import { AfterCommitList, type AfterCommitServices, type WorkTx } from './after-commit';

/** Domain functions take an EntityManager so the caller decides the transaction. */
export type Db = EntityManager;

/** A data source with what after-commit work needs (after-commit.ts): the API's and the worker's deps. */
export type WorkSource = AfterCommitServices & { ds: DataSource };

/**
 * Runs fn in one transaction: a failed request writes nothing. Given a WorkSource, fn gets a WorkTx: the jobs
 * and events it asks for start once the transaction commits, awaited before inTransaction returns, and a
 * rollback drops them. Given a bare DataSource, fn gets a plain transaction, and asking for a job in it
 * fails.
 */
export function inTransaction<T>(source: DataSource, fn: (db: Db) => Promise<T>): Promise<T>;
export function inTransaction<T>(source: WorkSource, fn: (tx: WorkTx) => Promise<T>): Promise<T>;
export async function inTransaction<T>(source: DataSource | WorkSource, fn: (tx: WorkTx) => Promise<T>): Promise<T> {
  const work = 'ds' in source ? new AfterCommitList(source) : null;
  const ds = 'ds' in source ? source.ds : source;
  let result: T;
  try {
    result = await ds.transaction('READ COMMITTED', (db) => fn(work ? work.attach(db) : (db as WorkTx)));
  } finally {
    // counted even when it failed: a lost answer to COMMIT may hide a commit
    commits += 1;
  }
  await work?.run();
  return result;
}

let commits = 0;

/**
 * The database's clock (UTC, as every stored time): where two processes decide about one row, such as
 * a deleted space's purge (worker) and its restore (API), they read the same clock.
 */
export async function databaseNow(db: Db): Promise<Date> {
  const [row] = await db.query('SELECT UTC_TIMESTAMP(3) AS now');
  return row.now as Date;
}

/**
 * How many transactions this process has committed: what was read before it last changed may
 * be stale (domain/auth/live-token-cache.ts forgets it).
 */
export function commitGeneration(): number {
  return commits;
}

/**
 * Inserts a copy of `entity`, for entities with columns that have a database default: on MariaDB
 * TypeORM reads those back (INSERT ... RETURNING) and merges them into the inserted object
 * unconverted, so a boolean would become 0/1 in the object the caller goes on to present.
 */
export async function insertKeepingValues<T extends ObjectLiteral>(
  db: Db,
  target: EntityTarget<T>,
  entity: T,
): Promise<void> {
  await db.insert(target, { ...entity } as QueryDeepPartialEntity<T>);
}

/** A write refused by a unique index (the driver's error, bare or wrapped by TypeORM). */
export function isDuplicateKey(err: unknown): boolean {
  return (
    (err as { code?: string; driverError?: { code?: string } }).driverError?.code === 'ER_DUP_ENTRY' ||
    (err as { code?: string }).code === 'ER_DUP_ENTRY'
  );
}
