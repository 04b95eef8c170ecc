/**
 * What a content trie holds. Keys:
 *   p:<pageId>   -> PageEntry (where the page sits and which version it has)
 *   c:<parentId> -> ordered child page ids ("c:" for the root level)
 *   f:<fileId>   -> FileEntry
 * A page's text and metadata live in an immutable PageVersion object, shared while unchanged.
 */
export interface PageEntry {
  v: string;
  parent: string | null;
  slug: string;
  title: string;
}

export interface ExtractedLink {
  kind: 'page' | 'file' | 'space' | 'openapi' | 'url';
  /** page id, page path (kind page with `byPath`), file id, space id, OpenAPI slug or URL */
  target: string;
  byPath?: boolean;
}

export interface PageVersion {
  title: string;
  emoji: string | null;
  description: string | null;
  markdown: string;
  hidden: boolean;
  createdAt: string;
  updatedAt: string;
  links: ExtractedLink[];
}

export interface FileEntry {
  name: string;
  contentType: string;
  size: number;
  /** key of the bytes in the blob store */
  blob: string;
  width?: number;
  height?: number;
}

export const pageKey = (id: string): string => `p:${id}`;
export const childrenKey = (parentId: string | null): string => `c:${parentId ?? ''}`;
export const fileKey = (id: string): string => `f:${id}`;
export const idOfKey = (key: string): string => key.slice(2);

export type TrieValue = PageEntry | string[] | FileEntry;
