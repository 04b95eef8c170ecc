/**
 * The site row's lock: every write to a site or its structure takes it first, so concurrent writers
 * of one site queue up and each sees the others' orders, defaults and paths (domain/sites/sort.ts).
 */

import { Site } from '../../entities/Site';
import type { Db } from '../../platform/db/transactions';

/** The organization's site, locked for the rest of the transaction; null when there is none. */
export function findLockedSite(db: Db, organizationId: string, siteId: string): Promise<Site | null> {
  return db.findOne(Site, { where: { id: siteId, organizationId }, lock: { mode: 'pessimistic_write' } });
}
