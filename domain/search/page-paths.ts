/**
 * Titles and paths of many pages of one revision at once: ancestors are loaded level by level in
 * batches, so n results in a tree of depth d cost about d trie reads, not n × d.
 */
import { PageEntry, PageVersion, pageKey } from '../content/model';
import type { ContentReader } from '../content/reader';
import { getMany } from '../content/trie';

export interface PageLocation {
  title: string;
  path: string;
  /** titles of the pages above, top level first */
  ancestors: string[];
  /** the page's description, empty when it has none */
  description: string;
}

/** Pages absent from the revision are left out of the map. */
export async function pageLocations(reader: ContentReader, pageIds: string[]): Promise<Map<string, PageLocation>> {
  const entries = new Map<string, PageEntry>();
  const tried = new Set<string>();
  let wanted = [...new Set(pageIds)];
  while (wanted.length) {
    for (const id of wanted) tried.add(id);
    const found = await getMany<PageEntry>(reader.store, reader.root, wanted.map(pageKey));
    const parents = new Set<string>();
    for (const id of wanted) {
      const entry = found.get(pageKey(id));
      if (!entry) continue;
      entries.set(id, entry);
      if (entry.parent && !tried.has(entry.parent)) parents.add(entry.parent);
    }
    wanted = [...parents];
  }
  // the listed pages' versions, for their descriptions: one batch
  const versions = await reader.store.getMany<PageVersion>(
    pageIds.flatMap((id) => {
      const entry = entries.get(id);
      return entry ? [entry.v] : [];
    }),
  );
  const out = new Map<string, PageLocation>();
  for (const id of pageIds) {
    const entry = entries.get(id);
    if (!entry) continue;
    const slugs = [entry.slug];
    const ancestors: string[] = [];
    const seen = new Set([id]);
    for (
      let parent = entry.parent;
      parent && !seen.has(parent) && entries.has(parent);
      parent = entries.get(parent)!.parent
    ) {
      seen.add(parent);
      slugs.unshift(entries.get(parent)!.slug);
      ancestors.unshift(entries.get(parent)!.title);
    }
    out.set(id, {
      title: entry.title,
      path: slugs.join('/'),
      ancestors,
      description: versions.get(entry.v)?.description ?? '',
    });
  }
  return out;
}
