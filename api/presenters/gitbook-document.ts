/**
 * The structured document of a page, comment or translation as GitBook's `JSONDocument` says it (answers of
 * format=document): the document made from markdown (domain/content/document.ts, which the PDF renderer reads too)
 * rewritten into GitBook's node types. Every block carries `data`; headings stop at level 3 (GitBook has no
 * heading-4 to heading-6: deeper ones become heading-3); a link's target and an image's source are content
 * references (`{kind: 'url', url}`, `{kind: 'page', page}`, …); an image is an `inline-image`; a table is GitBook's
 * table of records, columns and cell fragments.
 */
import type {
  Document,
  DocumentElement,
  DocumentLeaf,
  DocumentNode,
  DocumentText,
} from '../../domain/content/document';

type Json = Record<string, unknown>;

/** A node of GitBook's document model. */
export interface GitBookNode {
  object: 'block' | 'inline' | 'text';
  type?: string;
  isVoid?: boolean;
  data?: Json;
  nodes?: GitBookNode[];
  leaves?: DocumentLeaf[];
  fragments?: Array<{ object: 'fragment'; fragment: string; nodes: GitBookNode[] }>;
}

export interface GitBookDocument {
  object: 'document';
  data: { schemaVersion: number };
  nodes: GitBookNode[];
}

export function presentDocument(document: Document): GitBookDocument {
  return { object: 'document', data: document.data, nodes: document.nodes.map(presentNode) };
}

/** A link target of our markdown as GitBook's content reference (the inverse of document-to-markdown's refTarget). */
export function contentRef(target: string): Json {
  const anchored = /^(?:page:([^#]+))?#(.+)$/.exec(target);
  if (anchored) return { kind: 'anchor', anchor: anchored[2], ...(anchored[1] ? { page: anchored[1] } : {}) };
  const typed = /^(page|file|space|openapi):(.+)$/.exec(target);
  if (!typed) return { kind: 'url', url: target };
  const [, kind, id] = typed;
  return kind === 'openapi' ? { kind, spec: id } : { kind, [kind]: id };
}

function presentNode(node: DocumentNode): GitBookNode {
  if (node.object === 'text') return node;
  const data = node.data ?? {};
  const nodes = () => node.nodes.map(presentNode);
  switch (node.type) {
    case 'heading-4':
    case 'heading-5':
    case 'heading-6':
      return { object: 'block', type: 'heading-3', data: {}, nodes: nodes() };
    case 'link':
      return {
        object: 'inline',
        type: 'link',
        isVoid: false,
        data: { ref: contentRef(String(data.href ?? '')) },
        nodes: nodes(),
      };
    case 'image':
      return {
        object: 'inline',
        type: 'inline-image',
        isVoid: true,
        data: { ref: contentRef(String(data.src ?? '')), caption: String(data.alt ?? '') },
      };
    case 'divider':
      return { object: 'block', type: 'divider', isVoid: true, data: {} };
    case 'table':
      return presentTable(node);
    default:
      return { object: node.object, type: node.type, data, nodes: nodes() };
  }
}

const ALIGNMENTS = new Set(['left', 'center', 'right']);

/** A markdown table (rows of cells, the first row the header) as GitBook's table: a text column per header cell. */
function presentTable(table: DocumentElement): GitBookNode {
  const rows = table.nodes.filter((row): row is DocumentElement => row.object === 'block' && row.type === 'table-row');
  const cellsOf = (row: DocumentElement) =>
    row.nodes.filter((cell): cell is DocumentElement => cell.object === 'block' && cell.type === 'table-cell');
  const [header, ...body] = rows;
  const columns = (header ? cellsOf(header) : []).map((cell, i) => ({
    id: `c${i}`,
    title: plainText(cell.nodes),
    type: 'text',
    textAlignment: ALIGNMENTS.has(String(cell.data?.align)) ? String(cell.data?.align) : 'left',
  }));
  const fragments: NonNullable<GitBookNode['fragments']> = [];
  const records: Json = {};
  body.forEach((row, r) => {
    const values: Json = {};
    cellsOf(row).forEach((cell, c) => {
      if (c >= columns.length) return;
      const fragment = `r${r}c${c}`;
      values[columns[c].id] = fragment;
      const content = cell.nodes.map(presentNode);
      fragments.push({
        object: 'fragment',
        fragment,
        nodes: content.length ? [{ object: 'block', type: 'paragraph', data: {}, nodes: content }] : [],
      });
    });
    // orderIndex sorts as a string: fixed-width numbers keep the rows' order
    records[`r${r}`] = { orderIndex: String(r).padStart(6, '0'), values };
  });
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: {
      view: { type: 'grid', columns: columns.map((c) => c.id), hideHeader: false },
      records,
      definition: Object.fromEntries(columns.map((c) => [c.id, c])),
    },
    fragments,
  };
}

function plainText(nodes: DocumentNode[]): string {
  return nodes
    .map((n) =>
      n.object === 'text'
        ? (n as DocumentText).leaves.map((l) => l.text).join('')
        : plainText((n as DocumentElement).nodes),
    )
    .join('');
}
