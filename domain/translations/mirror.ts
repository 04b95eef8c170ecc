/**
 * Writes a run's result through the content editor: the result's page tree becomes the source's, page
 * for page under the same ids, parents, order and slugs (so links by id or path, comments and sites
 * keep pointing at the same pages), with the translated text of the pages sent and the previous
 * translation of the others; emoji and hidden follow the source. Pages the source no longer has go.
 * Files are the source's, their bytes copied under the result space's own keys, so the two spaces'
 * storage is never shared. Only the pages that differ are written: those sent or restamped, those placed
 * differently in the two layouts, and those edited in the result since the last run.
 */
import * as path from 'path';
import type { ContentEditor } from '../content/editor';
import { childrenKey, FileEntry, idOfKey, PageVersion, pageKey } from '../content/model';
import { canonicalJson, type ObjectStore } from '../content/objects';
import { ContentReader } from '../content/reader';
import { diff } from '../content/trie';
import { ContentLayout, childrenOf, PlacedPage, pagesInOrder } from './layout';
import type { PageText } from './page-text';

/** Where the result space keeps its copy of a source file's bytes. */
export const resultBlobKey = (resultSpaceId: string, sourceBlob: string) =>
  `files/${resultSpaceId}/${path.posix.basename(sourceBlob)}`;

export interface MirrorFilesInput {
  source: ContentLayout;
  result: ContentLayout;
  resultSpaceId: string;
  /** Copies a source blob to the result's key, once per key (already copied ones are skipped). */
  copyBlob(from: string, to: string): Promise<void>;
}

/** The source files the result lacks (or holds differently), with the entries it should hold. */
export function filesToMirror(
  input: Pick<MirrorFilesInput, 'source' | 'result' | 'resultSpaceId'>,
): Array<{ id: string; source: FileEntry; entry: FileEntry }> {
  return [...input.source.files].flatMap(([id, file]) => {
    const entry = { ...file, blob: resultBlobKey(input.resultSpaceId, file.blob) };
    const held = input.result.files.get(id);
    return held && canonicalJson(held) === canonicalJson(entry) ? [] : [{ id, source: file, entry }];
  });
}

/** Pages of the result whose page entry changed between two of its revisions: edited there since the last run. */
export async function editedPages(store: ObjectStore, before: string, after: string): Promise<Set<string>> {
  const changes = await diff(store, before, after);
  return new Set(changes.filter(([key]) => key.startsWith('p:')).map(([key]) => idOfKey(key)));
}

/**
 * The source's pages the result must be written for, in source order (parents first): those in `pinned` (sent,
 * restamped, edited in the result), those the result lacks or holds under another parent or slug, and every
 * child of a parent whose children differ in order or number, so that placing them in turn restores the order.
 */
export function pagesToWrite(source: ContentLayout, result: ContentLayout, pinned: Set<string>): PlacedPage[] {
  const reordered = new Map<string | null, boolean>();
  const childrenDiffer = (parent: string | null) => {
    let differ = reordered.get(parent);
    if (differ === undefined) {
      const [a, b] = [childrenOf(source, parent), childrenOf(result, parent)];
      differ = a.length !== b.length || a.some((id, i) => id !== b[i]);
      reordered.set(parent, differ);
    }
    return differ;
  };
  return pagesInOrder(source).filter(({ id, entry, parent }) => {
    const held = result.pages.get(id);
    return pinned.has(id) || !held || held.parent !== parent || held.slug !== entry.slug || childrenDiffer(parent);
  });
}

/** The result's pages the source does not have. */
export function pagesToRemove(source: ContentLayout, result: ContentLayout): string[] {
  return [...result.pages.keys()].filter((id) => !source.pages.has(id));
}

/**
 * Writes one source page into the result as the source places it, with `text` when it was translated in this run
 * (else the result keeps the text it holds). Returns true when the result lacked it and it was created untranslated.
 */
export async function mirrorPage(
  editor: ContentEditor,
  page: PlacedPage,
  version: PageVersion,
  text: PageText | undefined,
): Promise<boolean> {
  const { id, parent, index } = page;
  const { emoji, hidden } = version;
  const existing = await editor.page(id);
  if (!existing) {
    const fields = text ?? { title: version.title, description: version.description, markdown: version.markdown };
    await editor.createPage({ ...fields, emoji, hidden }, { parent, index }, id);
  } else {
    const current = await editor.store.get<PageVersion>(existing.v);
    const translated = text && { title: text.title, description: text.description, markdown: text.markdown };
    const wanted: Partial<PageVersion> = { ...translated, emoji, hidden };
    // an unchanged page is not written again, so a retried apply commits nothing twice
    if (Object.entries(wanted).some(([field, value]) => current[field as keyof PageVersion] !== value))
      await editor.updatePage(id, wanted);
    const siblings = await editor.rawList(childrenKey(parent));
    if (existing.parent !== parent || siblings.indexOf(id) !== index) await editor.movePage(id, { parent, index });
  }
  const placed = (await editor.page(id))!;
  if (placed.slug !== page.entry.slug) editor.setRaw(pageKey(id), { ...placed, slug: page.entry.slug });
  return !existing && !text;
}

/** Deletes the result's pages the source does not have (with what is under them). */
export async function removePages(editor: ContentEditor, ids: string[]): Promise<void> {
  for (const id of ids) if (await editor.page(id)) await editor.deletePage(id);
}

/** Makes the result's files the source's. */
export async function mirrorFiles(editor: ContentEditor, input: MirrorFilesInput): Promise<void> {
  for (const { id, source, entry } of filesToMirror(input)) {
    await input.copyBlob(source.blob, entry.blob);
    editor.putFile(id, entry);
  }
  const unwanted = [...input.result.files.keys()].filter((id) => !input.source.files.has(id));
  // a file deleted from the result during the run is already gone
  const held = await new ContentReader(editor.store, editor.baseRoot).hasFiles(unwanted);
  for (const id of unwanted) if (held.has(id)) await editor.deleteFile(id);
}
