/** Schema pieces shared by presenters. */
import { z } from 'zod';

export { roleSchema, timestamp } from '../../platform/wire/common-fields';
export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function listSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    count: z.number().int(),
    next: z.object({ page: z.string() }).optional(),
  });
}

/** Maps a page of rows to the list envelope, presenting each item. */
export function presentList<R, T>(
  page: { items: R[]; count: number; next?: { page: string } },
  items: T[],
): { items: T[]; count: number; next?: { page: string } } {
  return page.next ? { items, count: page.count, next: page.next } : { items, count: page.count };
}
