import type { Db } from '../db';
import { columnsOf, hydrate } from '../rows';
import { Collection } from '../../entities/Collection';
import { ContentGrant, GrantTargetKind } from '../../entities/ContentGrant';
import { Member } from '../../entities/Member';

/**
 * What the access function needs to know about one caller, loaded lazily and memoised for
 * the life of one request, so a list of n spaces costs a handful of queries, not n.
 */
export class AccessContext {
  private readonly memberships = new Map<string, Member | null>();
  private readonly collectionsByOrg = new Map<string, Map<string, Collection>>();
  private grantsCache: ContentGrant[] | null = null;

  /**
   * `memberships`: the user's memberships when already read (authentication reads them with the
   * token). An organization missing from them is still looked up: this request may have just joined it.
   */
  constructor(
    readonly db: Db,
    readonly userId: string,
    memberships: Member[] = [],
  ) {
    for (const m of memberships) this.memberships.set(m.organizationId, m.disabled ? null : m);
  }

  async membership(organizationId: string): Promise<Member | null> {
    if (!this.memberships.has(organizationId)) {
      const m = await this.db.findOneBy(Member, { organizationId, userId: this.userId });
      this.memberships.set(organizationId, m && !m.disabled ? m : null);
    }
    return this.memberships.get(organizationId) ?? null;
  }

  /** Grants held by the caller directly or through a team, on any content, in one statement. */
  async grants(): Promise<ContentGrant[]> {
    if (!this.grantsCache) {
      const rows: Array<Record<string, unknown>> = await this.db.query(
        `SELECT ${columnsOf(this.db, ContentGrant, 'g')} FROM content_grants g
         WHERE (g.principalKind = 'user' AND g.principalId = ?)
            OR (g.principalKind = 'team' AND g.principalId IN (SELECT tm.teamId FROM team_members tm WHERE tm.userId = ?))`,
        [this.userId, this.userId],
      );
      this.grantsCache = rows.map((r) => hydrate(this.db, ContentGrant, 'g', r));
    }
    return this.grantsCache;
  }

  async grantsOn(kind: GrantTargetKind, id: string): Promise<ContentGrant[]> {
    return (await this.grants()).filter((g) => g.targetKind === kind && g.targetId === id);
  }

  /** The collection and its ancestors, nearest first. */
  async collectionChain(organizationId: string, collectionId: string | null): Promise<Collection[]> {
    if (!collectionId) return [];
    let byId = this.collectionsByOrg.get(organizationId);
    if (!byId) {
      const all = await this.db.findBy(Collection, { organizationId });
      byId = new Map(all.map((c) => [c.id, c]));
      this.collectionsByOrg.set(organizationId, byId);
    }
    const chain: Collection[] = [];
    const seen = new Set<string>();
    for (let id: string | null = collectionId; id && !seen.has(id); ) {
      seen.add(id);
      const c = byId.get(id);
      if (!c) break;
      chain.push(c);
      id = c.parentId;
    }
    return chain;
  }

  /** Forget cached state after this request changed memberships, teams or collections. */
  reset(): void {
    this.memberships.clear();
    this.collectionsByOrg.clear();
    this.grantsCache = null;
  }
}
