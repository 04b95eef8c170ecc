/**
 * What changed between two revisions, as GitBook's semantic changes: pages created, edited, moved or deleted, files
 * created, edited or deleted, variables edited. Computed from the content tries' difference (trie.ts `diff`), which
 * skips every subtree both revisions share, so the cost follows the changed pages, not the size of the space.
 */
import { createHash } from 'crypto';
import { FileEntry, idOfKey, PageEntry, PageVersion, TrieValue } from './model';
import type { ObjectStore } from './objects';
import { ContentReader } from './reader';
import { diff, emptyTrie } from './trie';

/** A side of the comparison: a revision's content and variables. */
export interface ContentState {
  root: string;
  variables: Record<string, string>;
}

export interface ChangedPage {
  id: string;
  title: string;
  path: string;
}

type Attribute<T> = { before?: T; after?: T };

export interface PageAttributes {
  title?: Attribute<string>;
  description?: Attribute<string>;
  slug?: Attribute<string>;
  /** opaque ids of the body; in every page edit, equal when the body did not change */
  document?: Attribute<string>;
  emoji?: Attribute<string>;
}

export interface FileAttributes {
  name?: Attribute<string>;
  contentType?: Attribute<string>;
  size?: Attribute<number>;
  /** the bytes changed: their download URLs differ */
  blob?: Attribute<string>;
  dimensions?: Attribute<{ width: number; height: number }>;
}

export type SemanticChange =
  | { type: 'page_created' | 'page_deleted'; page: ChangedPage }
  | { type: 'page_edited'; page: ChangedPage; attributes: PageAttributes }
  | { type: 'page_moved'; page: ChangedPage; parent: { before?: ChangedPage; after?: ChangedPage } }
  | { type: 'file_created' | 'file_deleted'; file: { id: string; entry: FileEntry } }
  | { type: 'file_edited'; file: { id: string; entry: FileEntry }; attributes: FileAttributes }
  | { type: 'variables_edited'; variables: Record<string, Attribute<string>> };

export interface SemanticChanges {
  /** the first `limit` changes, in order: pages (created, edited, moved, deleted), files, variables */
  changes: SemanticChange[];
  /** how many more changed */
  more: number;
}

const ORDER: Record<SemanticChange['type'], number> = {
  page_created: 0,
  page_edited: 1,
  page_moved: 2,
  page_deleted: 3,
  file_created: 4,
  file_edited: 5,
  file_deleted: 6,
  variables_edited: 7,
};

/** An attribute that differs, with each side present only where it has a value. */
function changed<T>(before: T | null | undefined, after: T | null | undefined): Attribute<T> | undefined {
  if (JSON.stringify(before ?? null) === JSON.stringify(after ?? null)) return undefined;
  return {
    ...(before === null || before === undefined ? {} : { before }),
    ...(after === null || after === undefined ? {} : { after }),
  };
}

/** Drops the attributes that did not change; null when none did. */
function present<A extends object>(attributes: A): A | null {
  const kept = Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as A;
  return Object.keys(kept).length ? kept : null;
}

const bodyId = (markdown: string): string => createHash('sha1').update(markdown).digest('hex');

/**
 * The ids of `after`'s list that changed place among the ids both lists hold: all but a longest run kept in order
 * (a longest increasing subsequence of their former positions, n log n).
 */
export function reordered(before: string[], after: string[]): string[] {
  const position = new Map(before.map((id, i) => [id, i]));
  const common = after.filter((id) => position.has(id));
  const tails: number[] = []; // index into `common` of the smallest tail of each run length
  const previous: number[] = new Array(common.length).fill(-1);
  common.forEach((id, i) => {
    const p = position.get(id)!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (position.get(common[tails[mid]])! < p) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1];
    tails[lo] = i;
  });
  const kept = new Set<string>();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) kept.add(common[i]);
  return common.filter((id) => !kept.has(id));
}

/** The changes from `before` (null: an empty content) to `after`, the first `limit` of them in full. */
export async function semanticChanges(
  store: ObjectStore,
  before: ContentState | null,
  after: ContentState,
  limit: number,
): Promise<SemanticChanges> {
  const beforeRoot = before?.root ?? emptyTrie(store);
  const entries = await diff<TrieValue>(store, beforeRoot, after.root);
  const pages = new Map<string, [PageEntry | undefined, PageEntry | undefined]>();
  const files: Array<[string, FileEntry | undefined, FileEntry | undefined]> = [];
  const lists: Array<[string[], string[]]> = [];
  for (const [key, was, is] of entries) {
    if (key.startsWith('p:')) pages.set(idOfKey(key), [was as PageEntry | undefined, is as PageEntry | undefined]);
    else if (key.startsWith('f:'))
      files.push([idOfKey(key), was as FileEntry | undefined, is as FileEntry | undefined]);
    else if (was && is) lists.push([was as string[], is as string[]]);
  }

  const old = new ContentReader(store, beforeRoot);
  const now = new ContentReader(store, after.root);
  const changedPage = async (reader: ContentReader, id: string, entry: PageEntry): Promise<ChangedPage> => ({
    id,
    title: entry.title,
    path: await reader.pathOf(id, entry),
  });
  const parentOf = async (reader: ContentReader, id: string | null): Promise<ChangedPage | undefined> => {
    const entry = id ? await reader.entry(id) : undefined;
    return id && entry ? changedPage(reader, id, entry) : undefined;
  };

  // A page changed place when its parent changed, or when its siblings kept their order around it.
  const moved = new Set<string>();
  for (const [was, is] of lists) for (const id of reordered(was, is)) moved.add(id);
  const versions = await store.getMany<PageVersion>(
    [...pages.values()].flatMap(([was, is]) => (was && is ? [was.v, is.v] : [])),
  );

  const out: Array<{ order: number; title: string; id: string; make: () => Promise<SemanticChange> }> = [];
  for (const [id, [was, is]] of pages) {
    if (!was && is) {
      out.push({
        order: ORDER.page_created,
        title: is.title,
        id,
        make: async () => ({ type: 'page_created', page: await changedPage(now, id, is) }),
      });
      continue;
    }
    if (was && !is) {
      out.push({
        order: ORDER.page_deleted,
        title: was.title,
        id,
        make: async () => ({ type: 'page_deleted', page: await changedPage(old, id, was) }),
      });
      continue;
    }
    if (!was || !is) continue;
    const a = versions.get(was.v)!;
    const b = versions.get(is.v)!;
    const attributes = present<PageAttributes>({
      title: changed(was.title, is.title),
      slug: changed(was.slug, is.slug),
      description: changed(a.description, b.description),
      emoji: changed(a.emoji, b.emoji),
      document: changed(a.markdown, b.markdown),
    });
    // Always stated, as ids of the bodies: GitBook's document tells a page's attributes from a group's by it.
    if (attributes) attributes.document = { before: bodyId(a.markdown), after: bodyId(b.markdown) };
    if (attributes)
      out.push({
        order: ORDER.page_edited,
        title: is.title,
        id,
        make: async () => ({ type: 'page_edited', page: await changedPage(now, id, is), attributes }),
      });
    if (was.parent !== is.parent || moved.has(id))
      out.push({
        order: ORDER.page_moved,
        title: is.title,
        id,
        make: async () => ({
          type: 'page_moved',
          page: await changedPage(now, id, is),
          parent: {
            ...optional('before', await parentOf(old, was.parent)),
            ...optional('after', await parentOf(now, is.parent)),
          },
        }),
      });
  }
  // a page whose siblings were reordered but whose own entry did not change
  for (const id of moved) {
    if (pages.has(id)) continue;
    const entry = await now.entry(id);
    if (!entry) continue;
    out.push({
      order: ORDER.page_moved,
      title: entry.title,
      id,
      make: async () => {
        const parent = await parentOf(now, entry.parent);
        return {
          type: 'page_moved',
          page: await changedPage(now, id, entry),
          parent: { ...optional('before', parent), ...optional('after', parent) },
        };
      },
    });
  }

  for (const [id, was, is] of files) {
    const file = { id, entry: (is ?? was)! };
    if (!was || !is) {
      const type = was ? 'file_deleted' : 'file_created';
      out.push({ order: ORDER[type], title: file.entry.name, id, make: async () => ({ type, file }) });
      continue;
    }
    const dimensions = (f: FileEntry) =>
      f.width !== undefined && f.height !== undefined ? { width: f.width, height: f.height } : null;
    const attributes = present<FileAttributes>({
      name: changed(was.name, is.name),
      contentType: changed(was.contentType, is.contentType),
      size: changed(was.size, is.size),
      blob: changed(was.blob, is.blob),
      dimensions: changed(dimensions(was), dimensions(is)),
    });
    if (attributes)
      out.push({
        order: ORDER.file_edited,
        title: is.name,
        id,
        make: async () => ({ type: 'file_edited', file, attributes }),
      });
  }

  const variables: Record<string, Attribute<string>> = {};
  for (const name of new Set([...Object.keys(before?.variables ?? {}), ...Object.keys(after.variables)])) {
    const change = changed(before?.variables[name], after.variables[name]);
    if (change) variables[name] = change;
  }
  if (Object.keys(variables).length)
    out.push({
      order: ORDER.variables_edited,
      title: '',
      id: '',
      make: async () => ({ type: 'variables_edited', variables }),
    });

  out.sort((x, y) => x.order - y.order || x.title.localeCompare(y.title) || x.id.localeCompare(y.id));
  const kept = out.slice(0, limit);
  return { changes: await Promise.all(kept.map((c) => c.make())), more: out.length - kept.length };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [k in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [k in K]?: V });
}
