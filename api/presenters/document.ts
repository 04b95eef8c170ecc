/** The wire schema of the structured document form of a page (built in domain/content/document.ts). */
import { z } from 'zod';
import type { DocumentNode } from '../../domain/content/document';

const markSchema = z.object({ object: z.literal('mark'), type: z.enum(['bold', 'italic', 'strikethrough', 'code']) });
const leafSchema = z.object({ object: z.literal('leaf'), text: z.string(), marks: z.array(markSchema) });

// zod-to-openapi 7 cannot describe recursive (lazy) schemas: child nodes point back at DocumentNode by $ref.
const childNodes = z
  .array(z.custom<DocumentNode>())
  .openapi({ type: 'array', items: { $ref: '#/components/schemas/DocumentNode' } });

export const documentNodeSchema = z
  .object({
    object: z.enum(['block', 'inline', 'text']),
    type: z.string().optional().openapi({ description: 'blocks: heading-1..heading-6, paragraph, list-unordered, list-ordered, list-item, blockquote, code, code-line, table, table-row, table-cell, divider; inlines: link, image' }),
    isVoid: z.literal(true).optional(),
    data: z.record(z.union([z.string(), z.number(), z.boolean()])).optional(),
    nodes: childNodes.optional(),
    leaves: z.array(leafSchema).optional().openapi({ description: 'text nodes only' }),
  })
  .openapi('DocumentNode');

export const documentSchema = z
  .object({
    object: z.literal('document'),
    data: z.object({ schemaVersion: z.number().int() }),
    nodes: z.array(documentNodeSchema),
  })
  .openapi('Document');
