/**
 * Turns the staged pages into the pages the commit creates, parents before children: the tree
 * follows the pages' paths (a path without a page of its own gets a folder page titled by its
 * segment), and siblings keep the order in which the import met them. The plan holds no markdown:
 * the commit reads each page's from its batch as it creates it.
 */
import { newId } from '../ids';
import { titleOfSegment } from './batch';
import type { StagedPageRef } from './staging';

export interface PlannedPage {
  id: string;
  parentId: string | null;
  title: string;
  /** the batch whose pages blob holds its markdown; null for a folder page (no markdown) */
  batch: number | null;
}

interface TreeNode {
  id: string;
  title: string;
  batch: number | null;
  children: TreeNode[];
}

function folderNode(segment: string): TreeNode {
  return { id: newId(), title: titleOfSegment(segment), batch: null, children: [] };
}

export function planPages(pages: Iterable<StagedPageRef>): PlannedPage[] {
  const roots: TreeNode[] = [];
  const byPath = new Map<string, TreeNode>();
  for (const page of pages) {
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
    const node: TreeNode = { id: page.id, title: page.title, batch: page.batch, children: [] };
    const key = page.path.join('/');
    const folder = page.path.length ? byPath.get(key) : undefined;
    if (folder && folder.batch === null) {
      // the page of a path met first through its descendants takes the folder's place
      Object.assign(folder, { id: node.id, title: node.title, batch: node.batch });
      continue;
    }
    if (page.path.length && !folder) byPath.set(key, node);
    siblings.push(node);
  }
  const planned: PlannedPage[] = [];
  const emit = (nodes: TreeNode[], parentId: string | null) => {
    for (const n of nodes) {
      planned.push({ id: n.id, parentId, title: n.title, batch: n.batch });
      emit(n.children, n.id);
    }
  };
  emit(roots, null);
  return planned;
}
