/** Schema pieces shared by presenters. */
import { z } from 'zod';

export { roleSchema, timestamp } from '../../platform/wire/common-fields';
export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function listSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item).openapi({ description: 'the items of this page, in the order the list is sorted' }),
    count: z.number().int().openapi({ description: 'how many items the whole list holds, across all its pages' }),
    next: z
      .object({
        page: z.string().openapi({ description: 'opaque cursor: pass it as `?page=` to get the next page' }),
      })
      .optional()
      .openapi({ description: 'where the next page starts; absent on the last page' }),
  });
}

/** Maps a page of rows to the list envelope, presenting each item. */
export function presentList<R, T>(
  page: { items: R[]; count: number; next?: { page: string } },
  items: T[],
): { items: T[]; count: number; next?: { page: string } } {
  return page.next ? { items, count: page.count, next: page.next } : { items, count: page.count };
}
