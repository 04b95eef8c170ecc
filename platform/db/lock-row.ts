/** One row read under a write lock held until the transaction ends: the check a write makes stays true for it. */
import type { EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import type { Db } from './transactions';

/** The row matching `where`, locked for the rest of the transaction; null when there is none. */
export function lockRow<T extends ObjectLiteral>(
  db: Db,
  entity: EntityTarget<T>,
  where: FindOptionsWhere<T>,
): Promise<T | null> {
  return db.findOne(entity, { where, lock: { mode: 'pessimistic_write' } });
}
