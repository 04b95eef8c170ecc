/**
 * The organization a request works in, from its path parameters: `organizationId` names it; a
 * `spaceId` or `collectionId` belongs to one. Read for the per-organization limit and the request
 * log before the handler runs, so what was found is remembered for a while: a hot space costs no
 * statement. Only existing organizations are returned, so made-up ids add no counter rows. A
 * transferred space may count against its former organization until its entry expires; that is all
 * a stale entry can do.
 */
import type { DataSource } from 'typeorm';

/** The path parameters that name an organization or something it holds, and how its organization is read. */
const ORGANIZATION_OF = [
  ['organizationId', 'SELECT id AS organizationId FROM organizations WHERE id = ?'],
  ['spaceId', 'SELECT organizationId FROM spaces WHERE id = ?'],
  ['collectionId', 'SELECT organizationId FROM collections WHERE id = ?'],
] as const;

/** The id alphabet (api/schemas.ts): anything else names nothing, and is not looked up. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

const MAX_ENTRIES = 10_000;
const TTL_MS = 5 * 60_000;

export class RequestOrganizations {
  private readonly owners = new Map<string, { organizationId: string; expiresAt: number }>();

  constructor(private readonly ds: DataSource) {}

  /** null: the path names no organization, or something that does not exist. Without a promise when remembered. */
  of(params: Record<string, unknown>): string | null | Promise<string | null> {
    for (const [param, sql] of ORGANIZATION_OF) {
      const id = params[param];
      if (typeof id === 'string') return ID.test(id) ? this.lookUp(param, sql, id) : null;
    }
    return null;
  }

  private lookUp(param: string, sql: string, id: string): string | Promise<string | null> {
    const key = `${param}:${id}`;
    const now = Date.now();
    const known = this.owners.get(key);
    if (known && known.expiresAt > now) return known.organizationId;
    return this.read(key, sql, id, now);
  }

  private async read(key: string, sql: string, id: string, now: number): Promise<string | null> {
    const rows: Array<{ organizationId: string }> = await this.ds.query(sql, [id]);
    if (!rows.length) return null;
    if (this.owners.size >= MAX_ENTRIES) this.owners.clear();
    this.owners.set(key, { organizationId: rows[0].organizationId, expiresAt: now + TTL_MS });
    return rows[0].organizationId;
  }
}
