/**
 * Edits one revision's content into a new trie root: every change is buffered in an overlay and
 * applied at `finish()`, so the cost follows the number of pages touched, not the size of the space.
 */
import { badRequest, conflict, notFound } from '../errors';
import { newId } from '../ids';
import { extractLinks } from './markdown';
import { childrenKey, FileEntry, fileKey, PageEntry, PageVersion, pageKey, TrieValue } from './model';
import type { ObjectStore } from './objects';
import { slugOf, uniqueSlug } from './slugs';
import { getMany, update } from './trie';

export interface PageFields {
  title?: string;
  markdown?: string;
  emoji?: string | null;
  description?: string | null;
  hidden?: boolean;
}

export interface Placement {
  parent?: string | null;
  /** 0-based position among the siblings; omitted: last */
  index?: number;
}

export class ContentEditor {
  private readonly overlay = new Map<string, TrieValue | undefined>();
  private readonly now = new Date().toISOString();

  constructor(
    readonly store: ObjectStore,
    readonly baseRoot: string,
  ) {}

  get changed(): boolean {
    return this.overlay.size > 0;
  }

  private async read<V extends TrieValue>(keys: string[]): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    const fromTrie = keys.filter((k) => !this.overlay.has(k));
    const found = await getMany<V>(this.store, this.baseRoot, fromTrie);
    for (const k of keys) {
      const v = this.overlay.has(k) ? this.overlay.get(k) : found.get(k);
      if (v !== undefined) out.set(k, v as V);
    }
    return out;
  }

  async page(id: string): Promise<PageEntry | undefined> {
    return (await this.read<PageEntry>([pageKey(id)])).get(pageKey(id));
  }

  private async requirePage(id: string): Promise<PageEntry> {
    const entry = await this.page(id);
    if (!entry) throw notFound('page');
    return entry;
  }

  private async children(parentId: string | null): Promise<string[]> {
    return (await this.read<string[]>([childrenKey(parentId)])).get(childrenKey(parentId)) ?? [];
  }

  private async siblingSlugs(parentId: string | null, except: string | null): Promise<Set<string>> {
    const ids = (await this.children(parentId)).filter((id) => id !== except);
    const entries = await this.read<PageEntry>(ids.map(pageKey));
    return new Set([...entries.values()].map((e) => e.slug));
  }

  private putVersion(version: Omit<PageVersion, 'links'>): string {
    return this.store.put({ ...version, links: extractLinks(version.markdown) });
  }

  private async insertChild(parentId: string | null, id: string, index: number | undefined): Promise<void> {
    const list = (await this.children(parentId)).filter((c) => c !== id);
    if (index !== undefined && index > list.length) throw badRequest(`index: must be at most ${list.length}`);
    list.splice(index ?? list.length, 0, id);
    this.overlay.set(childrenKey(parentId), list);
  }

  private async removeChild(parentId: string | null, id: string): Promise<void> {
    const list = (await this.children(parentId)).filter((c) => c !== id);
    this.overlay.set(childrenKey(parentId), list.length ? list : undefined);
  }

  private async assertParent(parent: string | null): Promise<void> {
    if (parent && !(await this.page(parent))) throw badRequest('parent: no such page in this content');
  }

  async createPage(fields: PageFields & { title: string }, placement: Placement = {}, id = newId()): Promise<string> {
    const parent = placement.parent ?? null;
    await this.assertParent(parent);
    const slug = uniqueSlug(slugOf(fields.title), await this.siblingSlugs(parent, null));
    const v = this.putVersion({
      title: fields.title,
      markdown: fields.markdown ?? '',
      emoji: fields.emoji ?? null,
      description: fields.description ?? null,
      hidden: fields.hidden ?? false,
      createdAt: this.now,
      updatedAt: this.now,
    });
    this.overlay.set(pageKey(id), { v, parent, slug, title: fields.title });
    await this.insertChild(parent, id, placement.index);
    return id;
  }

  async updatePage(id: string, fields: PageFields): Promise<void> {
    const entry = await this.requirePage(id);
    const current = await this.store.get<PageVersion>(entry.v);
    const next = {
      title: fields.title ?? current.title,
      markdown: fields.markdown ?? current.markdown,
      emoji: fields.emoji !== undefined ? fields.emoji : current.emoji,
      description: fields.description !== undefined ? fields.description : current.description,
      hidden: fields.hidden ?? current.hidden,
      createdAt: current.createdAt,
      updatedAt: this.now,
    };
    const slug =
      next.title === entry.title
        ? entry.slug
        : uniqueSlug(slugOf(next.title), await this.siblingSlugs(entry.parent, id));
    this.overlay.set(pageKey(id), { v: this.putVersion(next), parent: entry.parent, slug, title: next.title });
  }

  /** Sets a trie value as it is (merges compute whole entries and lists themselves). */
  setRaw(key: string, value: TrieValue | undefined): void {
    this.overlay.set(key, value);
  }

  /** A child list by its key, as currently edited. */
  async rawList(key: string): Promise<string[]> {
    return (await this.read<string[]>([key])).get(key) ?? [];
  }

  async movePage(id: string, placement: Placement): Promise<void> {
    const entry = await this.requirePage(id);
    const parent = placement.parent === undefined ? entry.parent : placement.parent;
    await this.assertParent(parent);
    for (let p = parent; p; p = (await this.page(p))?.parent ?? null) {
      if (p === id) throw conflict('parent: a page cannot move under itself or one of its descendants');
    }
    if (parent === entry.parent && placement.index === undefined) return;
    await this.removeChild(entry.parent, id);
    await this.insertChild(parent, id, placement.index);
    const slug = parent === entry.parent ? entry.slug : uniqueSlug(entry.slug, await this.siblingSlugs(parent, id));
    this.overlay.set(pageKey(id), { ...entry, parent, slug });
  }

  /** Deletes the page and every page under it. */
  async deletePage(id: string): Promise<void> {
    const entry = await this.requirePage(id);
    await this.removeChild(entry.parent, id);
    const stack = [id];
    while (stack.length) {
      const current = stack.pop()!;
      stack.push(...(await this.children(current)));
      this.overlay.set(pageKey(current), undefined);
      this.overlay.set(childrenKey(current), undefined);
    }
  }

  putFile(id: string, file: FileEntry): void {
    this.overlay.set(fileKey(id), file);
  }

  async deleteFile(id: string): Promise<void> {
    const found = await this.read<FileEntry>([fileKey(id)]);
    if (!found.size) throw notFound('file');
    this.overlay.set(fileKey(id), undefined);
  }

  /** The new root with every buffered change applied (objects staged in the store). */
  async finish(): Promise<string> {
    return update(this.store, this.baseRoot, this.overlay);
  }
}
