import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, QueryDeepPartialEntity } from 'typeorm';

/** Domain functions take an EntityManager so the caller decides the transaction. */
export type Db = EntityManager;

/** Runs fn in one transaction: a failed request writes nothing. */
export async function inTransaction<T>(ds: DataSource, fn: (db: Db) => Promise<T>): Promise<T> {
  try {
    return await ds.transaction('READ COMMITTED', fn);
  } finally {
    // counted even when it failed: a lost answer to COMMIT may hide a commit
    commits += 1;
  }
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
