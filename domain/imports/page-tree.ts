/**
 * Turns the staged pages into the pages the commit creates, parents before children: the tree
 * follows the pages' paths (a path without a page of its own gets a folder page titled by its
 * segment), siblings keep the order in which the import met them, and the links between staged
 * documents become page links (`page:<id>`) or stay the addresses they were.
 */
import { newId } from '../ids';
import { titleOfSegment } from './batch';
import type { ImportState } from './staging';

export interface PlannedPage {
  id: string;
  parentId: string | null;
  title: string;
  markdown: string;
  /** made for a path without a page of its own */
  folder: boolean;
}

interface TreeNode {
  id: string;
  title: string;
  markdown: string;
  folder: boolean;
  children: TreeNode[];
}

function folderNode(segment: string): TreeNode {
  return { id: newId(), title: titleOfSegment(segment), markdown: '', folder: true, children: [] };
}

/** Replaces the link placeholders of the staged markdown. */
function linkResolver(state: ImportState): (markdown: string) => string {
  const pageBySource = new Map(state.pages.filter((p) => p.source !== null).map((p) => [p.source!, p.id]));
  const placeholder = new RegExp(`x-import-${state.nonce}:(\\d+)`, 'g');
  return (markdown) =>
    markdown.replace(placeholder, (_m, index: string) => {
      const link = state.links[Number(index)];
      const pageId = pageBySource.get(link.target);
      return `${pageId ? `page:${pageId}` : link.href}${link.hash}`;
    });
}

export function planPages(state: ImportState, texts: Map<string, string>): PlannedPage[] {
  const resolveLinks = linkResolver(state);
  const roots: TreeNode[] = [];
  const byPath = new Map<string, TreeNode>();
  for (const page of state.pages) {
    let siblings = roots;
    for (let depth = 1; depth < page.path.length; depth++) {
      const key = page.path.slice(0, depth).join('/');
      let parent = byPath.get(key);
      if (!parent) {
        parent = folderNode(page.path[depth - 1]);
        byPath.set(key, parent);
        siblings.push(parent);
      }
      siblings = parent.children;
    }
    const node: TreeNode = {
      id: page.id,
      title: page.title,
      markdown: resolveLinks(texts.get(page.id) ?? ''),
      folder: false,
      children: [],
    };
    const key = page.path.join('/');
    const folder = page.path.length ? byPath.get(key) : undefined;
    if (folder?.folder) {
      // the page of a path met first through its descendants takes the folder's place
      Object.assign(folder, { id: node.id, title: node.title, markdown: node.markdown, folder: false });
      continue;
    }
    if (page.path.length && !folder) byPath.set(key, node);
    siblings.push(node);
  }
  const planned: PlannedPage[] = [];
  const emit = (nodes: TreeNode[], parentId: string | null) => {
    for (const n of nodes) {
      planned.push({ id: n.id, parentId, title: n.title, markdown: n.markdown, folder: n.folder });
      emit(n.children, n.id);
    }
  };
  emit(roots, null);
  return planned;
}
