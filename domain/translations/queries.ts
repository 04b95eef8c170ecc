/** List queries of translations, filtered in SQL to those whose live source space the reader can view. */

import { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import type { Db } from '../../platform/db/transactions';
import type { ViewableContent } from '../access/authorize';
import { whereSpaceViewable } from '../access/viewable';

export function translationsOfOrganizationQuery(db: Db, organizationId: string, viewable: ViewableContent) {
  const qb = db
    .createQueryBuilder(Translation, 't')
    .innerJoin(Space, 's', 's.id = t.sourceSpaceId AND s.deletedAt IS NULL')
    .where('t.organizationId = :organizationId', { organizationId });
  return whereSpaceViewable(qb, 's', viewable);
}
