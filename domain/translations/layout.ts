/**
 * Where each page of a revision sits, without its text: the trie's page entries (parent, slug, title and the hash
 * of the page's version), child lists and file entries, a few hundred bytes a page, read in one walk of the trie. A run compares the source with its result
 * and with what it recorded through these alone, and reads the text of only the pages it sends or writes.
 */
import { childrenKey, FileEntry, idOfKey, PageEntry, TrieValue } from '../content/model';
import type { ContentReader } from '../content/reader';
import { entries } from '../content/trie';

export interface ContentLayout {
  pages: Map<string, PageEntry>;
  /** Child page ids by `childrenKey(parent)`. */
  children: Map<string, string[]>;
  files: Map<string, FileEntry>;
}

export interface PlacedPage {
  id: string;
  entry: PageEntry;
  parent: string | null;
  /** position among its siblings */
  index: number;
}

/** The layout of a reader's revision (an empty one without a revision). */
export async function readLayout(reader: ContentReader | null): Promise<ContentLayout> {
  const layout: ContentLayout = { pages: new Map(), children: new Map(), files: new Map() };
  if (!reader) return layout;
  for (const [key, value] of await entries<TrieValue>(reader.store, reader.root)) {
    if (key.startsWith('p:')) layout.pages.set(idOfKey(key), value as PageEntry);
    else if (key.startsWith('c:')) layout.children.set(key, value as string[]);
    else if (key.startsWith('f:')) layout.files.set(idOfKey(key), value as FileEntry);
  }
  return layout;
}

/** The children of `parent` (null: the top level). */
export function childrenOf(layout: ContentLayout, parent: string | null): string[] {
  return layout.children.get(childrenKey(parent)) ?? [];
}

/** Every page, parents before children and siblings in order (depth first), with its parent and position. */
export function pagesInOrder(layout: ContentLayout): PlacedPage[] {
  const out: PlacedPage[] = [];
  // `placed` counts the listed children that have an entry, as the reader's tree does
  const pending: Array<{ parent: string | null; ids: string[]; at: number; placed: number }> = [
    { parent: null, ids: childrenOf(layout, null), at: 0, placed: 0 },
  ];
  while (pending.length) {
    const level = pending[pending.length - 1];
    if (level.at >= level.ids.length) {
      pending.pop();
      continue;
    }
    const id = level.ids[level.at++];
    const entry = layout.pages.get(id);
    if (!entry) continue;
    out.push({ id, entry, parent: level.parent, index: level.placed++ });
    pending.push({ parent: id, ids: childrenOf(layout, id), at: 0, placed: 0 });
  }
  return out;
}
