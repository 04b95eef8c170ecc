/**
 * Links of kind `openapi` (`openapi:<slug>`) are `ok` while the organization of the linking space has
 * a specification with that slug, else `broken`. They have no revision to follow: their status
 * changes when a spec is created or deleted, so those re-decide every link to its slug.
 */
import { In } from 'typeorm';
import { OpenAPISpec } from '../../entities/OpenAPISpec';
import type { Db } from '../../platform/db/transactions';
import { linkTargetKey } from './target-key';

/** The slugs among `slugs` that name a spec of the organization. */
export async function existingSpecSlugs(db: Db, organizationId: string, slugs: string[]): Promise<Set<string>> {
  if (!slugs.length) return new Set();
  const rows = await db.find(OpenAPISpec, { where: { organizationId, slug: In(slugs) }, select: { slug: true } });
  return new Set(rows.map((r) => r.slug));
}

/** Re-decides the OpenAPI links matching `where` (over `space_links l` and its space `s`). */
export async function redecideOpenAPILinks(db: Db, where: string, params: unknown[]): Promise<void> {
  await db.query(
    `UPDATE space_links l JOIN spaces s ON s.id = l.spaceId
       SET l.status = IF(EXISTS (SELECT 1 FROM openapi_specs o WHERE o.organizationId = s.organizationId AND o.slug = l.target), 'ok', 'broken')
     WHERE l.kind = 'openapi' AND ${where}`,
    params,
  );
}

/** Re-decides the organization's links to `slug` after its spec was created or deleted. */
export async function refreshOpenAPISpecLinks(db: Db, organizationId: string, slug: string): Promise<void> {
  await redecideOpenAPILinks(db, 'l.targetKey = ? AND s.organizationId = ?', [
    linkTargetKey('openapi', slug),
    organizationId,
  ]);
}
