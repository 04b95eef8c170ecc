/**
 * Three-way merge of two content tries against their common base: page-tree changes
 * (add, delete, move, rename) merge at entry level; a page edited on both sides merges field by
 * field and its markdown line by line (diff3). Any conflict is reported, and nothing is produced.
 */
import { merge as diff3 } from 'node-diff3';
import { ContentEditor } from './editor';
import { extractLinks } from './markdown';
import { childrenKey, idOfKey, PageEntry, PageVersion, pageKey, TrieValue } from './model';
import type { ObjectStore } from './objects';
import { slugOf, uniqueSlug } from './slugs';
import { diff } from './trie';

export interface MergeConflict {
  page: string;
  title: string;
  reason: string;
}

export type MergeResult = { ok: true; root: string } | { ok: false; conflicts: MergeConflict[] };

type Change = [before: TrieValue | undefined, after: TrieValue | undefined];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Merges one scalar field: whichever side changed it wins; both changing it differently conflicts. */
function mergeScalar<T>(base: T, ours: T, theirs: T): { value: T } | null {
  if (same(ours, theirs) || same(theirs, base)) return { value: ours };
  if (same(ours, base)) return { value: theirs };
  return null;
}

/** Ordered child lists: ours, minus what theirs removed, plus what theirs added after its predecessor. */
export function mergeChildList(base: string[], ours: string[], theirs: string[]): string[] {
  const removed = new Set(base.filter((id) => !theirs.includes(id)));
  const result = ours.filter((id) => !removed.has(id));
  theirs.forEach((id, i) => {
    if (base.includes(id) || result.includes(id)) return;
    const predecessor = [...theirs.slice(0, i)].reverse().find((p) => result.includes(p));
    result.splice(predecessor ? result.indexOf(predecessor) + 1 : 0, 0, id);
  });
  return result;
}

function mergeMarkdown(base: string, ours: string, theirs: string): string | null {
  if (ours === theirs || theirs === base) return ours;
  if (ours === base) return theirs;
  const merged = diff3(ours.split('\n'), base.split('\n'), theirs.split('\n'));
  return merged.conflict ? null : merged.result.join('\n');
}

async function mergePage(
  store: ObjectStore,
  id: string,
  base: PageEntry,
  ours: PageEntry,
  theirs: PageEntry,
  conflicts: MergeConflict[],
): Promise<PageEntry | null> {
  const fail = (reason: string) => {
    conflicts.push({ page: id, title: ours.title, reason });
    return null;
  };
  const parent = mergeScalar(base.parent, ours.parent, theirs.parent);
  if (!parent) return fail('moved to different places on both sides');
  let v = ours.v;
  let title = ours.title;
  if (ours.v !== theirs.v && theirs.v !== base.v && ours.v !== base.v) {
    const versions = await store.getMany<PageVersion>([base.v, ours.v, theirs.v]);
    const [b, o, t] = [versions.get(base.v)!, versions.get(ours.v)!, versions.get(theirs.v)!];
    const markdown = mergeMarkdown(b.markdown, o.markdown, t.markdown);
    if (markdown === null) return fail('the same lines were edited on both sides');
    const merged: Partial<PageVersion> = {
      markdown,
      createdAt: o.createdAt,
      // biome-ignore lint/complexity/useMathMinMax: ISO timestamps are strings, ordered as text
      updatedAt: o.updatedAt > t.updatedAt ? o.updatedAt : t.updatedAt,
    };
    for (const field of ['title', 'emoji', 'description', 'hidden'] as const) {
      const m = mergeScalar(b[field], o[field], t[field]);
      if (!m) return fail(`${field} was changed differently on both sides`);
      Object.assign(merged, { [field]: m.value });
    }
    v = store.put({ ...merged, links: extractLinks(markdown) });
    title = merged.title as string;
  } else if (ours.v === base.v) {
    v = theirs.v;
    title = theirs.title;
  }
  const slug = title === ours.title ? ours.slug : title === theirs.title ? theirs.slug : slugOf(title);
  return { v, parent: parent.value, slug, title };
}

export async function mergeContent(
  store: ObjectStore,
  baseRoot: string,
  oursRoot: string,
  theirsRoot: string,
): Promise<MergeResult> {
  if (theirsRoot === baseRoot || theirsRoot === oursRoot) return { ok: true, root: oursRoot };
  if (oursRoot === baseRoot) return { ok: true, root: theirsRoot };
  const [oursDiff, theirsDiff] = await Promise.all([
    diff<TrieValue>(store, baseRoot, oursRoot),
    diff<TrieValue>(store, baseRoot, theirsRoot),
  ]);
  const ours = new Map<string, Change>(oursDiff.map(([k, b, a]) => [k, [b, a]]));
  const editor = new ContentEditor(store, oursRoot);
  const conflicts: MergeConflict[] = [];
  const touchedPages = new Set<string>();
  const touchedLists = new Map<string, string[]>();

  for (const [key, before, theirsAfter] of theirsDiff) {
    const mine = ours.get(key);
    if (key.startsWith('c:')) {
      touchedLists.set(
        key,
        mergeChildList(
          (before as string[]) ?? [],
          (mine ? (mine[1] as string[]) : (before as string[])) ?? [],
          (theirsAfter as string[]) ?? [],
        ),
      );
      continue;
    }
    if (key.startsWith('p:')) touchedPages.add(idOfKey(key));
    if (!mine) {
      editor.setRaw(key, theirsAfter);
      continue;
    }
    const oursAfter = mine[1];
    if (same(oursAfter, theirsAfter)) continue;
    if (!key.startsWith('p:')) {
      const file = (theirsAfter ?? oursAfter) as { name: string };
      conflicts.push({ page: idOfKey(key), title: file.name, reason: 'the file was changed on both sides' });
      continue;
    }
    const id = idOfKey(key);
    if (!oursAfter || !theirsAfter) {
      const kept = (oursAfter ?? theirsAfter) as PageEntry;
      conflicts.push({ page: id, title: kept.title, reason: 'edited on one side and deleted on the other' });
      continue;
    }
    const merged = await mergePage(
      store,
      id,
      before as PageEntry,
      oursAfter as PageEntry,
      theirsAfter as PageEntry,
      conflicts,
    );
    if (merged) editor.setRaw(key, merged);
  }
  if (conflicts.length) return { ok: false, conflicts };
  for (const [key, list] of touchedLists) editor.setRaw(key, list.length ? list : undefined);

  // Repair and check the tree where either side touched it: every page in its parent's list once,
  // no page under a parent deleted on the other side, slugs unique among siblings.
  for (const id of [...touchedPages, ...[...ours.keys()].filter((k) => k.startsWith('p:')).map(idOfKey)]) {
    const entry = await editor.page(id);
    if (!entry) continue;
    if (entry.parent && !(await editor.page(entry.parent))) {
      conflicts.push({ page: id, title: entry.title, reason: 'its parent page was deleted on the other side' });
      continue;
    }
    const listKey = childrenKey(entry.parent);
    const list = (await editor.rawList(listKey)).filter((c) => c !== id);
    const original = await editor.rawList(listKey);
    list.splice(original.includes(id) ? original.indexOf(id) : list.length, 0, id);
    editor.setRaw(listKey, list);
  }
  if (conflicts.length) return { ok: false, conflicts };
  await dropStrays(editor, touchedLists);
  await dedupeSlugs(editor, touchedPages);
  return { ok: true, root: await editor.finish() };
}

/** Removes from merged child lists the ids whose page is gone or lives under another parent. */
async function dropStrays(editor: ContentEditor, lists: Map<string, string[]>): Promise<void> {
  for (const key of lists.keys()) {
    const parent = key.slice(2) || null;
    const list = await editor.rawList(key);
    const kept: string[] = [];
    for (const id of list) {
      const entry = await editor.page(id);
      if (entry && entry.parent === parent) kept.push(id);
    }
    editor.setRaw(key, kept.length ? kept : undefined);
  }
}

async function dedupeSlugs(editor: ContentEditor, pages: Set<string>): Promise<void> {
  for (const id of pages) {
    const entry = await editor.page(id);
    if (!entry) continue;
    const siblings = (await editor.rawList(childrenKey(entry.parent))).filter((s) => s !== id);
    const entries = await Promise.all(siblings.map((s) => editor.page(s)));
    const taken = new Set(entries.filter(Boolean).map((e) => e!.slug));
    if (taken.has(entry.slug)) editor.setRaw(pageKey(id), { ...entry, slug: uniqueSlug(entry.slug, taken) });
  }
}
