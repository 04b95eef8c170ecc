import { Collection } from '../../entities/Collection';
import type { ContentGrant, GrantTargetKind } from '../../entities/ContentGrant';
import { Member } from '../../entities/Member';
import { TeamMember } from '../../entities/TeamMember';
import type { Db } from '../../platform/db/transactions';
import type { IntegrationPrincipal } from './integration-principal';

/** What authorization reads of a grant. */
export type AccessGrant = Pick<ContentGrant, 'targetKind' | 'targetId' | 'role'>;

/** The caller's memberships and grants, when already read (authentication reads them with the token). */
export interface KnownAccess {
  memberships: Member[];
  grants: AccessGrant[];
  /** Set when the caller is an integration's token: it then holds only what the integration's scopes give. */
  integration?: IntegrationPrincipal | null;
}

/**
 * A column: the grants held by the user that `userId` names (a parameter or a column), directly or
 * through a team, as one JSON array (NULL when none), so they cost no statement of their own.
 */
export function grantsOfUserColumn(userId: string): string {
  return `(SELECT JSON_ARRAYAGG(JSON_OBJECT('targetKind', g.targetKind, 'targetId', g.targetId, 'role', g.role)) FROM content_grants g
    WHERE (g.principalKind = 'user' AND g.principalId = ${userId})
       OR (g.principalKind = 'team' AND g.principalId IN (SELECT tm.teamId FROM team_members tm WHERE tm.userId = ${userId})))`;
}

/** Reads that column (MariaDB answers JSON as text, MySQL as parsed JSON). */
export function grantsOfColumn(value: unknown): AccessGrant[] {
  if (value === null || value === undefined) return [];
  return (typeof value === 'string' ? JSON.parse(value) : value) as AccessGrant[];
}

/** Deeper than any real nesting; it only stops a walk that would not end. */
const MAX_COLLECTION_DEPTH = 64;

/**
 * The collection and its ancestors, nearest first: one recursive statement that reads only that chain (never every
 * collection of the organization).
 */
export async function readCollectionChain(db: Db, organizationId: string, collectionId: string): Promise<Collection[]> {
  // depth bounds the walk, so a cycle written by a bug cannot loop
  const rows: Array<Record<string, unknown>> = await db.query(
    `WITH RECURSIVE chain AS (
       SELECT c.*, 0 AS depth FROM collections c WHERE c.id = ? AND c.organizationId = ?
       UNION ALL
       SELECT p.*, chain.depth + 1 FROM collections p JOIN chain ON p.id = chain.parentId AND p.organizationId = chain.organizationId
       WHERE chain.depth < ${MAX_COLLECTION_DEPTH}
     ) SELECT * FROM chain ORDER BY depth`,
    [collectionId, organizationId],
  );
  return rows.map(({ depth: _depth, ...row }) => db.create(Collection, row as Partial<Collection>));
}

/**
 * What the access function needs to know about one caller, loaded lazily and memoised for
 * the life of one request, so a list of n spaces costs a handful of queries, not n.
 */
export class AccessContext {
  private readonly memberships = new Map<string, Member | null>();
  private readonly chains = new Map<string, Collection[]>();
  private grantsCache: AccessGrant[] | null = null;
  private readonly installed = new Map<'space' | 'site', Set<string>>();
  /** Statements this context ran: none when all it decided came from the caller's known access. */
  private statements = 0;
  /** The integration the caller acts for, with one of its tokens (integration-scopes.ts decides for it); null for a user. */
  readonly integration: IntegrationPrincipal | null;

  /**
   * `known`: the user's memberships and grants when already read. An organization missing from the
   * memberships is still looked up: this request may have just joined it.
   */
  constructor(
    readonly db: Db,
    readonly userId: string,
    known?: KnownAccess,
  ) {
    for (const m of known?.memberships ?? []) this.memberships.set(m.organizationId, m.disabled ? null : m);
    this.grantsCache = known?.grants ?? null;
    this.integration = known?.integration ?? null;
  }

  /**
   * A caller on `db` (a transaction's) with nothing read yet: a user's memberships and grants are read
   * there; an integration's principal, which involves none, is kept.
   */
  static forCaller(db: Db, caller: { userId: string; integration?: IntegrationPrincipal | null }): AccessContext {
    return new AccessContext(
      db,
      caller.userId,
      caller.integration ? { memberships: [], grants: [], integration: caller.integration } : undefined,
    );
  }

  /** The same caller on another Db (a transaction's), with nothing read yet. */
  within(db: Db): AccessContext {
    return AccessContext.forCaller(db, this);
  }

  get statementsRun(): number {
    return this.statements;
  }

  async membership(organizationId: string): Promise<Member | null> {
    // an integration's bot user is never a member: its installation, not a role, says what it reaches
    if (this.integration) return null;
    if (!this.memberships.has(organizationId)) {
      this.statements++;
      const m = await this.db.findOneBy(Member, { organizationId, userId: this.userId });
      this.memberships.set(organizationId, m && !m.disabled ? m : null);
    }
    return this.memberships.get(organizationId) ?? null;
  }

  /** The caller's membership of a team, if any (read each time: teams are rarely asked twice in a request). */
  async teamMembership(teamId: string): Promise<TeamMember | null> {
    this.statements++;
    return this.db.findOneBy(TeamMember, { teamId, userId: this.userId });
  }

  /** Grants held by the caller directly or through a team, on any content. */
  async grants(): Promise<AccessGrant[]> {
    if (!this.grantsCache) {
      this.statements++;
      const [row]: Array<{ grants: unknown }> = await this.db.query(`SELECT ${grantsOfUserColumn('?')} AS grants`, [
        this.userId,
        this.userId,
      ]);
      this.grantsCache = grantsOfColumn(row.grants);
    }
    return this.grantsCache;
  }

  /** The spaces or sites the caller's installation was installed on (its selection), read once per request. */
  async installedOn(kind: 'space' | 'site'): Promise<Set<string>> {
    const installationId = this.integration?.installation?.id;
    if (!installationId) return new Set();
    let ids = this.installed.get(kind);
    if (!ids) {
      this.statements++;
      const rows: Array<{ id: string }> = await this.db.query(
        kind === 'space'
          ? 'SELECT spaceId AS id FROM integration_space_installations WHERE installationId = ?'
          : 'SELECT siteId AS id FROM integration_site_installations WHERE installationId = ?',
        [installationId],
      );
      ids = new Set(rows.map((r) => r.id));
      this.installed.set(kind, ids);
    }
    return ids;
  }

  async grantsOn(kind: GrantTargetKind, id: string): Promise<AccessGrant[]> {
    return (await this.grants()).filter((g) => g.targetKind === kind && g.targetId === id);
  }

  /** The collection and its ancestors, nearest first (readCollectionChain), memoised for the request. */
  async collectionChain(organizationId: string, collectionId: string | null): Promise<Collection[]> {
    if (!collectionId) return [];
    const key = `${organizationId}/${collectionId}`;
    let chain = this.chains.get(key);
    if (!chain) {
      this.statements++;
      chain = await readCollectionChain(this.db, organizationId, collectionId);
      this.chains.set(key, chain);
    }
    return chain;
  }

  /** The given collections of the organization and every collection inside them, in one recursive statement. */
  async collectionsWithin(organizationId: string, collectionIds: string[]): Promise<string[]> {
    if (!collectionIds.length) return [];
    this.statements++;
    const rows: Array<{ id: string }> = await this.db.query(
      `WITH RECURSIVE inside AS (
         SELECT c.id, 0 AS depth FROM collections c WHERE c.organizationId = ? AND c.id IN (?)
         UNION ALL
         SELECT c.id, inside.depth + 1 FROM collections c JOIN inside ON c.parentId = inside.id
         WHERE inside.depth < ${MAX_COLLECTION_DEPTH}
       ) SELECT DISTINCT id FROM inside`,
      [organizationId, collectionIds],
    );
    return rows.map((r) => r.id);
  }

  /** Forget cached state after this request changed memberships, teams or collections. */
  reset(): void {
    this.memberships.clear();
    this.chains.clear();
    this.grantsCache = null;
    this.installed.clear();
  }
}
