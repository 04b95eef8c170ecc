/** The wire schemas of the structured document form: as answered (built in domain/content/document.ts) and as sent. */
import { z } from 'zod';
import type { InputDocument } from '../../domain/content/document-to-markdown';
import type { GitBookNode } from './gitbook-document';

const markSchema = z.object({
  object: z.literal('mark').openapi({ description: 'always `mark`' }),
  type: z.enum(['bold', 'italic', 'strikethrough', 'code']).openapi({ description: 'the formatting applied' }),
});
const leafSchema = z.object({
  object: z.literal('leaf').openapi({ description: 'always `leaf`' }),
  text: z.string().openapi({ description: 'a run of text sharing the same marks' }),
  marks: z.array(markSchema).openapi({ description: 'formatting of the run; empty for plain text' }),
});

// zod-to-openapi 7 cannot describe recursive (lazy) schemas: child nodes point back at DocumentNode by $ref.
const childNodes = z.array(z.custom<GitBookNode>()).openapi({
  type: 'array',
  items: { $ref: '#/components/schemas/DocumentNode' },
  description: 'child nodes, in document order',
});

export const documentNodeSchema = z
  .object({
    object: z
      .enum(['block', 'inline', 'text'])
      .openapi({ description: 'block (paragraph-level), inline (inside text: a link, an image) or text' }),
    type: z.string().optional().openapi({
      description:
        "GitBook's node types. Blocks: heading-1..heading-3, paragraph, list-unordered, list-ordered, list-item, blockquote, hint, code, code-line, table (GitBook's records, definition and view, its cells in `fragments`), divider; inlines: link, inline-image",
    }),
    isVoid: z.boolean().optional().openapi({ description: 'true: the node has no editable text of its own' }),
    data: z.record(z.unknown()).optional().openapi({
      description:
        'a link\'s `ref` and an image\'s are content references: {kind: "url", url}, {kind: "page", page}, …',
    }),
    nodes: childNodes.optional(),
    fragments: z
      .array(
        z.object({
          object: z.literal('fragment').openapi({ description: 'always `fragment`' }),
          fragment: z.string().openapi({ description: "the fragment's name, as the table's records refer to it" }),
          nodes: childNodes,
        }),
      )
      .optional()
      .openapi({ description: "a table's cells, named by its records' values" }),
    leaves: z.array(leafSchema).optional().openapi({ description: 'text nodes only' }),
  })
  .openapi('DocumentNode', { description: "A node of GitBook's document model: a block, an inline or a text" });

export const documentSchema = z
  .object({
    object: z.literal('document').openapi({ description: 'always `document`' }),
    data: z
      .object({
        schemaVersion: z.number().int().openapi({ description: "version of GitBook's document model used" }),
      })
      .openapi({ description: 'about the document as a whole' }),
    nodes: z.array(documentNodeSchema).openapi({ description: 'the top-level blocks, in document order' }),
  })
  .openapi('Document', {
    description: "A page or comment body as GitBook's structured document, built from its markdown",
  });

const NODE_DEPTH_MAX = 64;
const NODE_OBJECTS = new Set(['block', 'inline', 'text']);
type Path = Array<string | number>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function isLeaf(leaf: unknown): boolean {
  if (!isRecord(leaf) || typeof leaf.text !== 'string') return false;
  return (
    leaf.marks === undefined ||
    (Array.isArray(leaf.marks) && leaf.marks.every((m) => isRecord(m) && typeof m.type === 'string'))
  );
}

/**
 * The first node of a tree that is not a node, in document order, walked without recursion (a body
 * may nest deeper than a stack). Only what the markdown conversion reads is checked: GitBook's node
 * types keep growing, so other fields are left alone.
 */
function nodeProblem(nodes: unknown[]): { path: Path; message: string } | null {
  const pending = nodes.map((value, i) => ({ value, path: [i] as Path, depth: 1 })).reverse();
  while (pending.length) {
    const { value, path, depth } = pending.pop()!;
    if (depth > NODE_DEPTH_MAX) return { path, message: `must be nested at most ${NODE_DEPTH_MAX} levels deep` };
    if (!isRecord(value) || !NODE_OBJECTS.has(value.object as string))
      return { path, message: 'must be a node: an object whose `object` is block, inline or text' };
    if (value.object === 'text') {
      if (!Array.isArray(value.leaves) || !value.leaves.every(isLeaf))
        return { path: [...path, 'leaves'], message: 'must be a list of leaves {text, marks}' };
      continue;
    }
    if (typeof value.type !== 'string') return { path: [...path, 'type'], message: 'must be a string' };
    if (value.data !== undefined && !isRecord(value.data))
      return { path: [...path, 'data'], message: 'must be an object' };
    const children: Array<{ value: unknown; path: Path; depth: number }> = [];
    if (value.nodes !== undefined) {
      if (!Array.isArray(value.nodes)) return { path: [...path, 'nodes'], message: 'must be an array' };
      for (const [i, child] of value.nodes.entries())
        children.push({ value: child, path: [...path, 'nodes', i], depth: depth + 1 });
    }
    if (value.fragments !== undefined) {
      if (!Array.isArray(value.fragments)) return { path: [...path, 'fragments'], message: 'must be an array' };
      for (const [f, fragment] of value.fragments.entries()) {
        if (!isRecord(fragment) || !Array.isArray(fragment.nodes))
          return { path: [...path, 'fragments', f], message: 'must be a fragment {nodes}' };
        for (const [i, child] of fragment.nodes.entries())
          children.push({ value: child, path: [...path, 'fragments', f, 'nodes', i], depth: depth + 1 });
      }
    }
    pending.push(...children.reverse());
  }
  return null;
}

/**
 * A document as clients send it: GitBook's `JSONDocument` (ours, from format=document, is a subset).
 * Its nodes are checked for what the markdown conversion (domain/content/document-to-markdown.ts) reads.
 */
export const documentInputSchema = z
  .object({
    object: z.literal('document').openapi({ description: 'must be `document`' }),
    data: z.record(z.unknown()).optional().openapi({ description: 'accepted and ignored' }),
    nodes: z
      .array(z.unknown())
      .superRefine((nodes, ctx) => {
        const problem = nodeProblem(nodes);
        if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
      })
      .openapi({
        description: `the top-level nodes, nested at most ${NODE_DEPTH_MAX} levels deep`,
        items: { type: 'object', description: "a block, inline or text node of GitBook's document model" },
      }),
  })
  .strict()
  .transform((document) => document as unknown as InputDocument)
  .openapi('DocumentInput', {
    description: "GitBook's JSON document; read as markdown: nodes markdown cannot hold keep their text",
  });
