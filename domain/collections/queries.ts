/** List queries over collections, filtered in SQL to what the caller can view. */

import { Collection } from '../../entities/Collection';
import type { Db } from '../../platform/db/transactions';
import type { ViewableContent } from '../access/authorize';
import { whereCollectionViewable } from '../access/viewable';

/** Collections of the organization; `topLevelOnly` keeps those at the organization root. */
export function collectionsOfOrganizationQuery(
  db: Db,
  organizationId: string,
  topLevelOnly: boolean,
  viewable: ViewableContent,
) {
  const qb = db.createQueryBuilder(Collection, 'c').where('c.organizationId = :organizationId', { organizationId });
  if (topLevelOnly) qb.andWhere('c.parentId IS NULL');
  return whereCollectionViewable(qb, 'c', viewable);
}
