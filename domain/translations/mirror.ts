/**
 * Writes a run's result through the content editor: the result's page tree becomes the source's, page
 * for page under the same ids, parents, order and slugs (so links by id or path, comments and sites
 * keep pointing at the same pages), with the translated text of the pages sent and the previous
 * translation of the others; emoji and hidden follow the source. Pages the source no longer has go.
 * Files are the source's, their bytes copied under the result space's own keys, so the two spaces'
 * storage is never shared.
 */
import * as path from 'path';
import type { ContentEditor } from '../content/editor';
import { childrenKey, FileEntry, idOfKey, PageVersion, pageKey } from '../content/model';
import { canonicalJson } from '../content/objects';
import type { PageNode } from '../content/reader';
import { ContentReader } from '../content/reader';
import { entries } from '../content/trie';
import type { PageText } from './page-text';
import { flattenTree } from './source';

/** Where the result space keeps its copy of a source file's bytes. */
export const resultBlobKey = (resultSpaceId: string, sourceBlob: string) =>
  `files/${resultSpaceId}/${path.posix.basename(sourceBlob)}`;

export interface MirrorInput {
  tree: PageNode[];
  files: Array<{ id: string; file: FileEntry }>;
  translated: Map<string, PageText>;
  resultSpaceId: string;
  /** Copies a source blob to the result's key, once per key (already copied ones are skipped). */
  copyBlob(from: string, to: string): Promise<void>;
}

/** The source files the result lacks (or holds differently), with the entries it should hold. */
export async function filesToMirror(
  result: ContentReader | null,
  input: Pick<MirrorInput, 'files' | 'resultSpaceId'>,
): Promise<Array<{ id: string; source: FileEntry; entry: FileEntry }>> {
  const current = new Map((result ? await result.files() : []).map((f) => [f.id, f.file]));
  return input.files.flatMap(({ id, file }) => {
    const entry = { ...file, blob: resultBlobKey(input.resultSpaceId, file.blob) };
    const held = current.get(id);
    return held && canonicalJson(held) === canonicalJson(entry) ? [] : [{ id, source: file, entry }];
  });
}

/** Applies the run to the result's content; returns the pages it had to create untranslated (the result lost them during the run). */
export async function mirrorContent(editor: ContentEditor, input: MirrorInput): Promise<string[]> {
  const untranslated: string[] = [];
  const sourceIds = new Set<string>();
  for (const { node, parent, index } of flattenTree(input.tree)) {
    sourceIds.add(node.id);
    const { emoji, hidden } = node.version;
    const text = input.translated.get(node.id);
    const existing = await editor.page(node.id);
    if (!existing) {
      if (!text) untranslated.push(node.id);
      const fields = text ?? {
        title: node.version.title,
        description: node.version.description,
        markdown: node.version.markdown,
      };
      await editor.createPage({ ...fields, emoji, hidden }, { parent, index }, node.id);
    } else {
      if (text) await editor.updatePage(node.id, { ...text, emoji, hidden });
      else {
        const current = await editor.store.get<PageVersion>(existing.v);
        if (current.emoji !== emoji || current.hidden !== hidden) await editor.updatePage(node.id, { emoji, hidden });
      }
      const siblings = await editor.rawList(childrenKey(parent));
      if (existing.parent !== parent || siblings.indexOf(node.id) !== index)
        await editor.movePage(node.id, { parent, index });
    }
    const placed = (await editor.page(node.id))!;
    if (placed.slug !== node.entry.slug) editor.setRaw(pageKey(node.id), { ...placed, slug: node.entry.slug });
  }
  const resultPages = await entries(editor.store, editor.baseRoot, 'p:');
  for (const id of [...resultPages.keys()].map(idOfKey)) {
    if (!sourceIds.has(id) && (await editor.page(id))) await editor.deletePage(id);
  }

  for (const { id, source, entry } of await filesToMirror(new ContentReader(editor.store, editor.baseRoot), input)) {
    await input.copyBlob(source.blob, entry.blob);
    editor.putFile(id, entry);
  }
  const wanted = new Set(input.files.map((f) => f.id));
  for (const id of [...(await entries(editor.store, editor.baseRoot, 'f:')).keys()].map(idOfKey)) {
    if (!wanted.has(id)) await editor.deleteFile(id);
  }
  return untranslated;
}
