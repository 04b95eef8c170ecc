/**
 * The structured document form of a page (`format=document`), built from the markdown-it token
 * stream of its markdown: blocks nest as the markdown nests (lists hold items, items hold
 * paragraphs), inline content is text leaves with marks, links and images are inlines.
 */
import type MarkdownIt from 'markdown-it';
import { MarkdownTooLarge, parseMarkdown } from './markdown';

type Token = MarkdownIt.Token;

export type MarkType = 'bold' | 'italic' | 'strikethrough' | 'code';
export type NodeData = Record<string, string | number | boolean>;

export interface DocumentLeaf {
  object: 'leaf';
  text: string;
  marks: Array<{ object: 'mark'; type: MarkType }>;
}

export interface DocumentText {
  object: 'text';
  leaves: DocumentLeaf[];
}

export interface DocumentElement {
  object: 'block' | 'inline';
  type: string;
  isVoid?: true;
  data?: NodeData;
  nodes: DocumentNode[];
}

export type DocumentNode = DocumentElement | DocumentText;

export interface Document {
  object: 'document';
  data: { schemaVersion: number };
  nodes: DocumentNode[];
}

export const DOCUMENT_SCHEMA_VERSION = 1;

const MARKS: Record<string, MarkType> = { strong: 'bold', em: 'italic', s: 'strikethrough' };

function element(object: DocumentElement['object'], type: string, data?: NodeData, isVoid = false): DocumentElement {
  return {
    object,
    type,
    ...(isVoid ? { isVoid: true as const } : {}),
    ...(data && Object.keys(data).length ? { data } : {}),
    nodes: [],
  };
}

/** Appends text with its marks, merging into the previous leaf when the marks are the same. */
function appendText(into: DocumentNode[], text: string, marks: MarkType[]): void {
  const leaf: DocumentLeaf = { object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) };
  const last = into[into.length - 1];
  if (last?.object !== 'text') {
    into.push({ object: 'text', leaves: [leaf] });
    return;
  }
  const previous = last.leaves[last.leaves.length - 1];
  const sameMarks = previous.marks.length === marks.length && previous.marks.every((m, i) => m.type === marks[i]);
  if (sameMarks) previous.text += text;
  else last.leaves.push(leaf);
}

function inlineNodes(tokens: Token[]): DocumentNode[] {
  const root: DocumentNode[] = [];
  const containers: DocumentNode[][] = [root];
  const marks: MarkType[] = [];
  const current = () => containers[containers.length - 1];
  for (const t of tokens) {
    const mark = MARKS[t.type.replace(/_(open|close)$/, '')];
    if (mark && t.nesting === 1) marks.push(mark);
    else if (mark && t.nesting === -1) marks.splice(marks.lastIndexOf(mark), 1);
    else if (t.type === 'text') appendText(current(), t.content, marks);
    else if (t.type === 'code_inline') appendText(current(), t.content, [...marks, 'code']);
    else if (t.type === 'softbreak' || t.type === 'hardbreak') appendText(current(), '\n', marks);
    else if (t.type === 'link_open') {
      const link = element('inline', 'link', { href: String(t.attrGet('href') ?? '') });
      current().push(link);
      containers.push(link.nodes);
    } else if (t.type === 'link_close') containers.pop();
    else if (t.type === 'image') {
      const title = t.attrGet('title');
      current().push(
        element(
          'inline',
          'image',
          { src: String(t.attrGet('src') ?? ''), alt: t.content, ...(title ? { title } : {}) },
          true,
        ),
      );
    }
  }
  return root;
}

function codeBlock(t: Token): DocumentElement {
  const syntax = t.info.trim().split(/\s+/)[0];
  const code = element('block', 'code', syntax ? { syntax } : undefined);
  const lines = t.content.replace(/\n$/, '').split('\n');
  for (const line of lines) {
    const codeLine = element('block', 'code-line');
    appendText(codeLine.nodes, line, []);
    code.nodes.push(codeLine);
  }
  return code;
}

/** The block a container token opens, or null for wrappers that add no structure (thead, tbody). */
function openBlock(t: Token): DocumentElement | null {
  switch (t.type) {
    case 'heading_open':
      return element('block', `heading-${t.tag.slice(1)}`);
    case 'paragraph_open':
      return element('block', 'paragraph');
    case 'bullet_list_open':
      return element('block', 'list-unordered');
    case 'ordered_list_open': {
      const start = Number(t.attrGet('start') ?? 1);
      return element('block', 'list-ordered', start !== 1 ? { start } : undefined);
    }
    case 'list_item_open':
      return element('block', 'list-item');
    case 'blockquote_open':
      return element('block', 'blockquote');
    case 'hint_open':
      return element('block', 'hint', { style: String(t.attrGet('style')) });
    case 'table_open':
      return element('block', 'table');
    case 'tr_open':
      return element('block', 'table-row');
    case 'th_open':
    case 'td_open': {
      const align = /text-align:(\w+)/.exec(String(t.attrGet('style') ?? ''))?.[1];
      return element('block', 'table-cell', { header: t.type === 'th_open', ...(align ? { align } : {}) });
    }
    default:
      return null;
  }
}

/** Markdown past the token budget (stored before it) reads as one paragraph of its text: shown, never parsed. */
function plainDocument(document: Document, markdown: string): Document {
  const paragraph = element('block', 'paragraph');
  appendText(paragraph.nodes, markdown, []);
  document.nodes.push(paragraph);
  return document;
}

export function markdownToDocument(markdown: string): Document {
  const document: Document = { object: 'document', data: { schemaVersion: DOCUMENT_SCHEMA_VERSION }, nodes: [] };
  let tokens: Token[];
  try {
    tokens = parseMarkdown(markdown);
  } catch (err) {
    if (err instanceof MarkdownTooLarge) return plainDocument(document, markdown);
    throw err;
  }
  // one entry per open container token: its node list, or null for a transparent wrapper
  const stack: Array<DocumentNode[] | null> = [];
  const current = (): DocumentNode[] => [...stack].reverse().find((nodes) => nodes !== null) ?? document.nodes;
  for (const t of tokens) {
    if (t.nesting === 1) {
      const block = openBlock(t);
      if (block) current().push(block);
      stack.push(block ? block.nodes : null);
    } else if (t.nesting === -1) stack.pop();
    else if (t.type === 'inline') current().push(...inlineNodes(t.children ?? []));
    else if (t.type === 'fence' || t.type === 'code_block') current().push(codeBlock(t));
    else if (t.type === 'hr') current().push(element('block', 'divider', undefined, true));
  }
  return document;
}
