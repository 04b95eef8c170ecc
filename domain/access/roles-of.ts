/** The role a caller holds on content and on sites, from which every content policy derives its permissions. */
import type { Collection } from '../../entities/Collection';
import type { GrantTargetKind } from '../../entities/ContentGrant';
import type { Member } from '../../entities/Member';
import type { Space } from '../../entities/Space';
import { AccessContext, type AccessGrant } from './context';
import { type Role, roleRank } from './roles';

/** A space or collection, as the role rule reads it. */
export interface ContentNode {
  kind: GrantTargetKind;
  id: string;
  defaultLevel: Role | null;
  parentId: string | null;
}

/** The content a role is set on: the content itself or a collection holding it. */
export interface ContentRef {
  kind: GrantTargetKind;
  id: string;
}

/** Where a held role comes from, so that whoever lists it can tell an admin what to change. */
export type RoleOrigin<G> =
  /** the member's organization role: an admin's everywhere, or a member's where no default level is set */
  | { from: 'organization' }
  /** the `defaultLevel` of the content or of the nearest collection holding it that sets one */
  | { from: 'defaultLevel'; content: ContentRef }
  /** an explicit grant to the user or to one of their teams, on the content or on a collection holding it */
  | { from: 'grant'; content: ContentRef; grant: G };

export interface HeldRole<G> {
  role: Role;
  origin: RoleOrigin<G>;
}

/** What the rule reads beyond the membership, asked for only when needed (an organization admin needs neither). */
export interface RoleFacts<G extends AccessGrant> {
  /** the collections holding the content, nearest first */
  chain(): Promise<Collection[]>;
  /** the grants on that content that reach the member (theirs or their teams') */
  grantsOn(kind: GrantTargetKind, id: string): Promise<G[]>;
}

const refOf = (node: { id: string }, kind: GrantTargetKind): ContentRef => ({ kind, id: node.id });

/** The default level the content inherits: its own, else the nearest collection holding it that sets one. */
function defaultLevelOf(own: ContentNode, chain: Collection[]): { role: Role; content: ContentRef } | null {
  if (own.defaultLevel) return { role: own.defaultLevel, content: refOf(own, own.kind) };
  const setter = chain.find((c) => c.defaultLevel);
  return setter?.defaultLevel ? { role: setter.defaultLevel, content: refOf(setter, 'collection') } : null;
}

/**
 * The rule: an organization admin is admin everywhere; otherwise the content's defaultLevel, inherited space →
 * collection → … → the member's organization role (a guest inherits nothing), raised by any grant on the content or a
 * collection holding it. On a tie the inherited role is named, then the nearest grant.
 */
export async function heldContentRole<G extends AccessGrant>(
  member: Pick<Member, 'role'> | null,
  own: ContentNode,
  facts: RoleFacts<G>,
): Promise<HeldRole<G> | null> {
  if (!member) return null;
  if (member.role === 'admin') return { role: 'admin', origin: { from: 'organization' } };
  const chain = await facts.chain();
  let inherited: HeldRole<G> | null = null;
  if (member.role) {
    const level = defaultLevelOf(own, chain);
    inherited = level
      ? { role: level.role, origin: { from: 'defaultLevel', content: level.content } }
      : { role: member.role, origin: { from: 'organization' } };
  }
  let granted: HeldRole<G> | null = null;
  const nodes: ContentRef[] = [refOf(own, own.kind), ...chain.map((c) => refOf(c, 'collection'))];
  for (const content of nodes)
    for (const grant of await facts.grantsOn(content.kind, content.id))
      if (roleRank(grant.role) > roleRank(granted?.role))
        granted = { role: grant.role, origin: { from: 'grant', content, grant } };
  return roleRank(granted?.role) > roleRank(inherited?.role) ? granted : inherited;
}

/** The facts of one caller, read through their memoised context. */
function callerFacts(ctx: AccessContext, organizationId: string, parentId: string | null): RoleFacts<AccessGrant> {
  return {
    chain: () => ctx.collectionChain(organizationId, parentId),
    grantsOn: (kind, id) => ctx.grantsOn(kind, id),
  };
}

async function contentRole(ctx: AccessContext, organizationId: string, own: ContentNode): Promise<Role | null> {
  const member = await ctx.membership(organizationId);
  return (await heldContentRole(member, own, callerFacts(ctx, organizationId, own.parentId)))?.role ?? null;
}

export function spaceNode(space: Space): ContentNode {
  return { kind: 'space', id: space.id, defaultLevel: space.defaultLevel, parentId: space.parentId };
}

export function collectionNode(collection: Collection): ContentNode {
  return {
    kind: 'collection',
    id: collection.id,
    defaultLevel: collection.defaultLevel,
    parentId: collection.parentId,
  };
}

export async function spaceRole(ctx: AccessContext, space: Space): Promise<Role | null> {
  return contentRole(ctx, space.organizationId, spaceNode(space));
}

export async function collectionRole(ctx: AccessContext, collection: Collection): Promise<Role | null> {
  return contentRole(ctx, collection.organizationId, collectionNode(collection));
}

/** The rule for sites: a member holds their organization role on every site of it (a guest holds none). */
export function heldSiteRole(member: Pick<Member, 'role'> | null): Role | null {
  return member?.role ?? null;
}

/** The role a caller holds on every site of an organization. */
export async function siteRole(ctx: AccessContext, organizationId: string): Promise<Role | null> {
  return heldSiteRole(await ctx.membership(organizationId));
}
