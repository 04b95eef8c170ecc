import { In } from 'typeorm';
import type { Db } from '../db';
import { Collection } from '../../entities/Collection';
import { ContentGrant, GrantTargetKind } from '../../entities/ContentGrant';
import { Member } from '../../entities/Member';
import { TeamMember } from '../../entities/TeamMember';

/**
 * What the access function needs to know about one caller, loaded lazily and memoised for
 * the life of one request, so a list of n spaces costs a handful of queries, not n.
 */
export class AccessContext {
  private readonly memberships = new Map<string, Member | null>();
  private readonly collectionsByOrg = new Map<string, Map<string, Collection>>();
  private teamIdsCache: string[] | null = null;
  private grantsCache: ContentGrant[] | null = null;

  constructor(
    readonly db: Db,
    readonly userId: string,
  ) {}

  async membership(organizationId: string): Promise<Member | null> {
    if (!this.memberships.has(organizationId)) {
      const m = await this.db.findOneBy(Member, { organizationId, userId: this.userId });
      this.memberships.set(organizationId, m && !m.disabled ? m : null);
    }
    return this.memberships.get(organizationId) ?? null;
  }

  async teamIds(): Promise<string[]> {
    if (!this.teamIdsCache) {
      const rows = await this.db.find(TeamMember, { where: { userId: this.userId }, select: { teamId: true } });
      this.teamIdsCache = rows.map((r) => r.teamId);
    }
    return this.teamIdsCache;
  }

  /** Grants held by the caller directly or through a team, on any content. */
  async grants(): Promise<ContentGrant[]> {
    if (!this.grantsCache) {
      const teamIds = await this.teamIds();
      const mine = await this.db.findBy(ContentGrant, { principalKind: 'user', principalId: this.userId });
      const viaTeams = teamIds.length
        ? await this.db.findBy(ContentGrant, { principalKind: 'team', principalId: In(teamIds) })
        : [];
      this.grantsCache = [...mine, ...viaTeams];
    }
    return this.grantsCache;
  }

  async grantsOn(kind: GrantTargetKind, id: string): Promise<ContentGrant[]> {
    return (await this.grants()).filter((g) => g.targetKind === kind && g.targetId === id);
  }

  /** The collection and its ancestors, nearest first. */
  async collectionChain(organizationId: string, collectionId: string | null): Promise<Collection[]> {
    let byId = this.collectionsByOrg.get(organizationId);
    if (!byId) {
      const all = await this.db.findBy(Collection, { organizationId });
      byId = new Map(all.map((c) => [c.id, c]));
      this.collectionsByOrg.set(organizationId, byId);
    }
    const chain: Collection[] = [];
    const seen = new Set<string>();
    for (let id = collectionId; id && !seen.has(id); ) {
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
    this.teamIdsCache = null;
    this.grantsCache = null;
  }
}
