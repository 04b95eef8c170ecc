/**
 * Space search results, remembered by space, head revision, query and position. A space's search
 * index changes only in the transaction that moves its head to a new revision (content/heads.ts), so
 * a result read under one head revision stays that head's result: a new head is a new key, never a
 * stale hit. Callers are authorized before they get here; nothing of who asked is in a result.
 * Bounded by the size of the results' text; least recently read first out. Results are frozen.
 */
import { LRUCache } from 'lru-cache';
import { deepFreeze } from '../freeze';
import type { PageResult, SearchPage, SearchRequest } from './search';

const BUDGET_BYTES = 8 * 2 ** 20;

/** About the size of a result's JSON: its texts, and a little for each object's other fields. */
function sizeOf(result: SearchPage<PageResult>): number {
  let bytes = 100;
  for (const page of result.items) {
    bytes += 150 + page.title.length + page.path.length + page.ancestors.reduce((n, a) => n + a.length + 20, 0);
    for (const s of page.sections) bytes += 100 + s.anchor.length + s.title.length + s.body.length;
  }
  return bytes;
}

export class SearchResultCache {
  private readonly results = new LRUCache<string, SearchPage<PageResult>>({
    maxSize: BUDGET_BYTES,
    sizeCalculation: sizeOf,
  });

  /** The result for this head revision of the space, computed by `search` the first time. */
  async get(
    spaceId: string,
    revisionId: string,
    req: SearchRequest,
    search: () => Promise<SearchPage<PageResult>>,
  ): Promise<SearchPage<PageResult>> {
    const key = [spaceId, revisionId, req.query, req.after?.score ?? '', req.after?.id ?? '', req.limit].join('\u0000');
    const known = this.results.get(key);
    if (known) return known;
    const result = deepFreeze(await search());
    this.results.set(key, result);
    return result;
  }
}

export const spaceSearchResults = new SearchResultCache();
