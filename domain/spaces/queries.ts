/** List queries over live (not soft-deleted) spaces, filtered in SQL to what the reader can view. */
import type { ViewableContent } from '../access/authorize';
import { whereSpaceViewable } from '../access/viewable';
import type { Db } from '../db';
import { Space } from '../../entities/Space';

export function spacesOfOrganizationQuery(db: Db, organizationId: string, viewable: ViewableContent) {
  const qb = db
    .createQueryBuilder(Space, 's')
    .where('s.organizationId = :organizationId', { organizationId })
    .andWhere('s.deletedAt IS NULL');
  return whereSpaceViewable(qb, 's', viewable);
}

export function spacesInCollectionQuery(db: Db, collectionId: string, viewable: ViewableContent) {
  const qb = db.createQueryBuilder(Space, 's').where('s.parentId = :collectionId', { collectionId }).andWhere('s.deletedAt IS NULL');
  return whereSpaceViewable(qb, 's', viewable);
}
