import type { DataSource, EntityManager } from 'typeorm';

/** Domain functions take an EntityManager so the caller decides the transaction. */
export type Db = EntityManager;

/** Runs fn in one transaction: a failed request writes nothing. */
export function inTransaction<T>(ds: DataSource, fn: (db: Db) => Promise<T>): Promise<T> {
  return ds.transaction('READ COMMITTED', fn);
}
