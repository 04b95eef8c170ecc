import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, QueryDeepPartialEntity } from 'typeorm';
import { openAfterCommit, runAfterCommit } from './after-commit';

/** Domain functions take an EntityManager so the caller decides the transaction. */
export type Db = EntityManager;

/**
 * Runs fn in one transaction: a failed request writes nothing. Once it commits, runs the work fn registered
 * to follow it (after-commit.ts: a job's start, an event's delivery); a rollback drops that work.
 */
export async function inTransaction<T>(ds: DataSource, fn: (db: Db) => Promise<T>): Promise<T> {
  let transaction: ReturnType<typeof openAfterCommit> = null;
  let result: T;
  try {
    result = await ds.transaction('READ COMMITTED', (db) => {
      transaction = openAfterCommit(db);
      return fn(db);
    });
  } finally {
    // counted even when it failed: a lost answer to COMMIT may hide a commit
    commits += 1;
  }
  await runAfterCommit(transaction);
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
