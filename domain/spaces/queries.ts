/**
 * List statements over live (not soft-deleted) spaces, filtered in SQL to what the reader can view,
 * written by hand for api/middleware/paginate.ts `paginateStatement` (the alias is `s`).
 */

import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import type { ViewableContent } from '../access/authorize';
import { spaceViewableCondition } from '../access/viewable';

/** A statement over the live spaces matching `where` (named parameters) that the reader can view. */
function liveSpacesStatement(db: Db, where: string, params: Record<string, unknown>, viewable: ViewableContent) {
  const viewableOnly = spaceViewableCondition('s', viewable);
  return {
    db,
    entity: Space,
    alias: 's',
    from: 'spaces s',
    where: `${where} AND s.deletedAt IS NULL${viewableOnly ? ` AND ${viewableOnly.condition}` : ''}`,
    params: { ...params, ...viewableOnly?.params },
  };
}

export function spacesOfOrganizationStatement(db: Db, organizationId: string, viewable: ViewableContent) {
  return liveSpacesStatement(db, 's.organizationId = :organizationId', { organizationId }, viewable);
}

/** The spaces directly inside a collection. */
export function spacesInCollectionStatement(db: Db, collectionId: string, viewable: ViewableContent) {
  return liveSpacesStatement(db, 's.parentId = :collectionId', { collectionId }, viewable);
}
