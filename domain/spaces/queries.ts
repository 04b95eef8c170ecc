/** List queries over live (not soft-deleted) spaces, filtered in SQL to what the reader can view. */
import type { ViewableContent } from '../access/authorize';
import { spaceViewableCondition, whereSpaceViewable } from '../access/viewable';
import type { Db } from '../db';
import { Space } from '../../entities/Space';

/** An organization's live spaces that the reader can view, as a condition over the alias `s` (named parameters). */
function spacesOfOrganizationCondition(organizationId: string, viewable: ViewableContent): { where: string; params: Record<string, unknown> } {
  const viewableOnly = spaceViewableCondition('s', viewable);
  return {
    where: `s.organizationId = :organizationId AND s.deletedAt IS NULL${viewableOnly ? ` AND ${viewableOnly.condition}` : ''}`,
    params: { organizationId, ...viewableOnly?.params },
  };
}

export function spacesOfOrganizationQuery(db: Db, organizationId: string, viewable: ViewableContent) {
  const { where, params } = spacesOfOrganizationCondition(organizationId, viewable);
  return db.createQueryBuilder(Space, 's').where(where, params);
}

/** The same spaces as a hand-written list statement (api/middleware/paginate.ts), for the space list. */
export function spacesOfOrganizationStatement(db: Db, organizationId: string, viewable: ViewableContent) {
  return { db, entity: Space, alias: 's', from: 'spaces s', ...spacesOfOrganizationCondition(organizationId, viewable) };
}

export function spacesInCollectionQuery(db: Db, collectionId: string, viewable: ViewableContent) {
  const qb = db.createQueryBuilder(Space, 's').where('s.parentId = :collectionId', { collectionId }).andWhere('s.deletedAt IS NULL');
  return whereSpaceViewable(qb, 's', viewable);
}
