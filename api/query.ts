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
  .openapi({ type: 'integer', minimum: 0, maximum: 1000, description: 'page size, default 50' });

export const paginationQuery = {
  limit: queryLimit.optional(),
  page: z.string().max(2048).optional().openapi({ description: 'opaque cursor taken from `next.page`' }),
};

/** A query value that may be repeated (`?a=x&a=y`) or comma separated (`?a=x,y`). */
export const queryList = (item: z.ZodString) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(item).max(100))
    .openapi({ type: 'array', items: { type: 'string' } });
