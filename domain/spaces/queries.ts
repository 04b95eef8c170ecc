/**
 * List statements over live (not soft-deleted) spaces, filtered in SQL to what the reader can view,
 * written by hand for api/middleware/paginate.ts `paginateStatement` (the alias is `s`).
 */

import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import type { ViewableContent } from '../access/authorize';
import { spaceViewableCondition } from '../access/viewable';

/**
 * What a listed space is read with: what presenting it and deciding its permissions read, and its place among its
 * siblings (a collection's order), not its version or the state of its purge. A quarter fewer columns for the
 * driver to describe and parse on every list.
 */
const LISTED_SPACE_PROPERTIES: ReadonlyArray<keyof Space> = [
  'id',
  'organizationId',
  'parentId',
  'title',
  'emoji',
  'visibility',
  'editMode',
  'language',
  'defaultLevel',
  'revisionId',
  'position',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'mergeRules',
  'changeRequestsCount',
  'changeRequestsOpenCount',
  'changeRequestsDraftCount',
  'openCommentsCount',
];

/** A statement over the live spaces matching `where` (named parameters) that the reader can view. */
function liveSpacesStatement(db: Db, where: string, params: Record<string, unknown>, viewable: ViewableContent) {
  const viewableOnly = spaceViewableCondition('s', viewable);
  return {
    db,
    entity: Space,
    columns: LISTED_SPACE_PROPERTIES,
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
