/** Turns `viewableContent` into a WHERE condition, so lists filter, count and paginate in SQL. */
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { ViewableContent } from './authorize';

/**
 * The condition that keeps the spaces the caller can view: granted ones and those inside a viewable
 * collection (named parameters, as the query builder takes them); null when every space is.
 */
export function spaceViewableCondition(
  alias: string,
  viewable: ViewableContent,
): { condition: string; params: Record<string, string[]> } | null {
  if (viewable.everything) return null;
  const ors: string[] = [];
  const params: Record<string, string[]> = {};
  if (viewable.spaceIds.length) {
    ors.push(`${alias}.id IN (:...viewableSpaceIds)`);
    params.viewableSpaceIds = viewable.spaceIds;
  }
  if (viewable.collectionIds.length) {
    ors.push(`${alias}.parentId IN (:...viewableCollectionIds)`);
    params.viewableCollectionIds = viewable.collectionIds;
  }
  return { condition: ors.length ? `(${ors.join(' OR ')})` : '1 = 0', params };
}

/** Keeps the spaces the caller can view. */
export function whereSpaceViewable<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  viewable: ViewableContent,
): SelectQueryBuilder<T> {
  const viewableOnly = spaceViewableCondition(alias, viewable);
  return viewableOnly ? qb.andWhere(viewableOnly.condition, viewableOnly.params) : qb;
}

export function whereCollectionViewable<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  viewable: ViewableContent,
): SelectQueryBuilder<T> {
  if (viewable.everything) return qb;
  if (!viewable.collectionIds.length) return qb.andWhere('1 = 0');
  return qb.andWhere(`${alias}.id IN (:...viewableCollectionIds)`, { viewableCollectionIds: viewable.collectionIds });
}
