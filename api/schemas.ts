/** Schema primitives shared by every route area. */
import { z } from 'zod';

/** The alphabet of newId() (base64url). Ours are 20 characters; anything longer than 64 is not ours. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** An id in a body or query. */
export const resourceId = z.string().min(1).max(64).regex(ID_PATTERN, 'must be an id (letters, digits, "-" and "_")');

/**
 * An id in a path. One outside the id alphabet names nothing, so it answers the 404 of an unknown
 * `resource` (api/validation.ts) without a query: the ids' binary collation still ignores trailing spaces.
 */
export function pathId(resource: string) {
  return z.string().refine((id) => ID_PATTERN.test(id), { params: { notFound: resource } }).openapi({ pattern: ID_PATTERN.source });
}

export const emailDomain = z.string().min(3).max(253).regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i);
