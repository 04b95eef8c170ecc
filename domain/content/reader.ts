/**
 * Reads one revision's content without loading the whole tree: a page is a few trie lookups,
 * its path a walk up its ancestors. `tree()` and `files()` load everything, for whole-content reads.
 */
import { childrenKey, FileEntry, fileKey, idOfKey, PageEntry, PageVersion, pageKey } from './model';
import type { ObjectStore } from './objects';
import { entries, get, getMany } from './trie';

export interface PageRecord {
  id: string;
  entry: PageEntry;
  version: PageVersion;
  path: string;
}

export interface PageNode extends PageRecord {
  children: PageNode[];
}

/** A page in the tree without its version: what a walk over a large space reads before any page's content. */
export interface PageOutline {
  id: string;
  entry: PageEntry;
  path: string;
  children: PageOutline[];
}

export class ContentReader {
  constructor(
    readonly store: ObjectStore,
    readonly root: string,
  ) {}

  async entry(pageId: string): Promise<PageEntry | undefined> {
    return get<PageEntry>(this.store, this.root, pageKey(pageId));
  }

  async page(pageId: string): Promise<PageRecord | undefined> {
    const entry = await this.entry(pageId);
    if (!entry) return undefined;
    const [version, path] = await Promise.all([this.store.get<PageVersion>(entry.v), this.pathOf(pageId, entry)]);
    return { id: pageId, entry, version, path };
  }

  /** Slugs from the root down to the page, joined by "/". */
  async pathOf(pageId: string, entry?: PageEntry): Promise<string> {
    const slugs: string[] = [];
    let current = entry ?? (await this.entry(pageId));
    const seen = new Set<string>();
    while (current) {
      slugs.unshift(current.slug);
      if (!current.parent || seen.has(current.parent)) break;
      seen.add(current.parent);
      current = await this.entry(current.parent);
    }
    return slugs.join('/');
  }

  async childIds(parentId: string | null): Promise<string[]> {
    return (await get<string[]>(this.store, this.root, childrenKey(parentId))) ?? [];
  }

  /** The page at a slash-separated path, walking down from the root level. */
  async pageIdByPath(path: string): Promise<string | undefined> {
    let parent: string | null = null;
    for (const slug of path.split('/').filter(Boolean)) {
      const match = (await this.childrenBySlug(parent)).get(slug);
      if (!match) return undefined;
      parent = match;
    }
    return parent ?? undefined;
  }

  /**
   * Each parent's children by slug (the first child with a slug wins), read once per reader: a root's content never
   * changes, and a commit resolves every path link of the space (thousands on one level) through the same reader.
   */
  private readonly slugMaps = new Map<string | null, Promise<Map<string, string>>>();

  private childrenBySlug(parent: string | null): Promise<Map<string, string>> {
    let map = this.slugMaps.get(parent);
    if (!map) {
      map = this.readChildrenBySlug(parent);
      this.slugMaps.set(parent, map);
      // a failed read is not remembered
      map.catch(() => this.slugMaps.delete(parent));
    }
    return map;
  }

  private async readChildrenBySlug(parent: string | null): Promise<Map<string, string>> {
    const ids = await this.childIds(parent);
    const children = await getMany<PageEntry>(this.store, this.root, ids.map(pageKey));
    const bySlug = new Map<string, string>();
    for (const id of ids) {
      const slug = children.get(pageKey(id))?.slug;
      if (slug !== undefined && !bySlug.has(slug)) bySlug.set(slug, id);
    }
    return bySlug;
  }

  async hasPages(ids: string[]): Promise<Set<string>> {
    const found = await getMany<PageEntry>(this.store, this.root, ids.map(pageKey));
    return new Set([...found.keys()].map(idOfKey));
  }

  async hasFiles(ids: string[]): Promise<Set<string>> {
    const found = await getMany<FileEntry>(this.store, this.root, ids.map(fileKey));
    return new Set([...found.keys()].map(idOfKey));
  }

  async file(fileId: string): Promise<FileEntry | undefined> {
    return get<FileEntry>(this.store, this.root, fileKey(fileId));
  }

  async files(): Promise<Array<{ id: string; file: FileEntry }>> {
    const all = await entries<FileEntry>(this.store, this.root, 'f:');
    return [...all.entries()]
      .map(([k, file]) => ({ id: idOfKey(k), file }))
      .sort((a, b) => a.file.name.localeCompare(b.file.name) || a.id.localeCompare(b.id));
  }

  /** The pages under one page, nested and in order: one batch of trie and object reads per level. */
  async subtree(page: PageRecord): Promise<PageNode[]> {
    const top: PageNode[] = [];
    let level: Array<{ id: string; path: string; children: PageNode[] }> = [
      { id: page.id, path: page.path, children: top },
    ];
    while (level.length) {
      const lists = await getMany<string[]>(
        this.store,
        this.root,
        level.map((p) => childrenKey(p.id)),
      );
      const childIdsOf = (id: string) => lists.get(childrenKey(id)) ?? [];
      const ids = level.flatMap((p) => childIdsOf(p.id));
      if (!ids.length) break;
      const found = await getMany<PageEntry>(this.store, this.root, ids.map(pageKey));
      const versions = await this.store.getMany<PageVersion>([...found.values()].map((e) => e.v));
      const next: PageNode[] = [];
      for (const parent of level) {
        for (const id of childIdsOf(parent.id)) {
          const entry = found.get(pageKey(id));
          if (!entry) continue;
          const node: PageNode = {
            id,
            entry,
            version: versions.get(entry.v)!,
            path: `${parent.path}/${entry.slug}`,
            children: [],
          };
          parent.children.push(node);
          next.push(node);
        }
      }
      level = next;
    }
    return top;
  }

  /** The whole page tree in order, each page with its path, without reading any page's version. */
  async outline(): Promise<PageOutline[]> {
    const all = await entries<PageEntry | string[]>(this.store, this.root);
    const build = (parentId: string | null, parentPath: string): PageOutline[] =>
      ((all.get(childrenKey(parentId)) as string[] | undefined) ?? []).flatMap((id) => {
        const entry = all.get(pageKey(id)) as PageEntry | undefined;
        if (!entry) return [];
        const path = parentPath ? `${parentPath}/${entry.slug}` : entry.slug;
        return [{ id, entry, path, children: build(id, path) }];
      });
    return build(null, '');
  }

  /** The whole page tree in order, each page with its version and path. */
  async tree(): Promise<PageNode[]> {
    const outline = await this.outline();
    const hashes: string[] = [];
    const collect = (nodes: PageOutline[]): void =>
      nodes.forEach((n) => {
        hashes.push(n.entry.v);
        collect(n.children);
      });
    collect(outline);
    const versions = await this.store.getMany<PageVersion>(hashes);
    const withVersions = (nodes: PageOutline[]): PageNode[] =>
      nodes.map((n) => ({ ...n, version: versions.get(n.entry.v)!, children: withVersions(n.children) }));
    return withVersions(outline);
  }
}
