/** Zod building blocks for query strings, where every value arrives as text. */
import { z } from 'zod';

export const queryBoolean = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .openapi({ type: 'boolean' });

export const queryLimit = z
  .string()
  .regex(/^\d+$/, 'must be an integer')
  .transform(Number)
  .pipe(z.number().int().min(0).max(1000))
  .openapi({
    type: 'integer',
    minimum: 0,
    maximum: 1000,
    description: 'how many items a page holds, 0 to 1000 (default 50); 0 answers only the `count`',
  });

export const paginationQuery = {
  limit: queryLimit.optional(),
  page: z
    .string()
    .max(2048)
    .optional()
    .openapi({ description: "opaque cursor from the previous page's `next.page`; without it, the first page" }),
};

const QUERY_LIST_MAX = 100;

/** The document's schema of one item: its enum, or its lengths and pattern, so the document states the rules. */
function itemDocument(item: z.ZodString | z.ZodEnum<[string, ...string[]]>): Record<string, unknown> {
  if (item instanceof z.ZodEnum) return { type: 'string', enum: item.options };
  const document: Record<string, unknown> = { type: 'string' };
  for (const check of item._def.checks) {
    if (check.kind === 'min') document.minLength = check.value;
    else if (check.kind === 'max') document.maxLength = check.value;
    else if (check.kind === 'regex') document.pattern = check.regex.source;
  }
  return document;
}

/** A query value that may be repeated (`?a=x&a=y`) or comma separated (`?a=x,y`). */
export const queryList = <T extends z.ZodString | z.ZodEnum<[string, ...string[]]>>(item: T) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(item).max(QUERY_LIST_MAX))
    .openapi({ type: 'array', items: itemDocument(item), maxItems: QUERY_LIST_MAX });
