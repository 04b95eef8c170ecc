import slugify from 'slugify';

/** The URL slug of a title: lower-case ASCII words joined by hyphens (`fallback` when nothing is left). */
export function slugOf(title: string, fallback = 'page'): string {
  return slugify(title, { lower: true, strict: true, trim: true }).slice(0, 100) || fallback;
}

/** `slug`, or `slug-2`, `slug-3`… so that it differs from every slug in `taken`. */
export function uniqueSlug(slug: string, taken: Set<string>): string {
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`;
}
