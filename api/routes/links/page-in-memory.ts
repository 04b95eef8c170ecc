/**
 * Keyset pagination over a list computed in memory (a page's links, a change request's backlinks),
 * sorted ascending by a unique key: the signed cursor holds the last key given, so items added or
 * removed between pages shift nothing.
 */
import { badRequest } from '../../../domain/errors';
import { decodeCursor, DEFAULT_LIMIT, encodeCursor, Page } from '../../middleware/paginate';

export function pageInMemory<T, K extends string | number>(
  sorted: T[],
  keyOf: (item: T) => K,
  request: { limit?: number; page?: string; scope: string },
  secret: string,
): Page<T> {
  const limit = request.limit ?? DEFAULT_LIMIT;
  let start = 0;
  if (request.page) {
    const [after] = decodeCursor(secret, request.scope, request.page, 1);
    if (typeof after !== 'string' && typeof after !== 'number') throw badRequest('page: invalid or expired cursor');
    const index = sorted.findIndex((item) => keyOf(item) > after);
    start = index === -1 ? sorted.length : index;
  }
  const items = sorted.slice(start, start + limit);
  const last = items[items.length - 1];
  const page: Page<T> = { items, count: sorted.length };
  if (start + limit < sorted.length && last !== undefined) page.next = { page: encodeCursor(secret, request.scope, [keyOf(last)]) };
  return page;
}
