/**
 * The one authorization function: no route decides access on its own. Every route asks `authorize`, every `permissions`
 * object is `permissionsOf`: both ask the policy registered for the target's kind (policies/), and
 * every content policy derives from the same effective role (roles-of.ts).
 *
 * Effective role on content: an organization admin is admin everywhere; otherwise the content's
 * defaultLevel, inherited space → collection → … → the member's organization role, raised by any
 * explicit grant to the user or one of their teams on the content or an ancestor collection.
 * A guest (null organization role) holds only what grants give.
 */
import { forbidden, notFound } from '../errors';
import { AccessContext } from './context';
import { integrationPermissions, integrationViewableSites, integrationViewableSpaces } from './integration-scopes';
import { POLICIES } from './policies';
import type { Policy } from './policies/policy';
import { siteRole } from './roles-of';
import type { PermissionsByKind, Target, TargetOf } from './targets';

export { spaceRole } from './roles-of';
export type * from './targets';

/** Which sites of an organization the caller sees, in a form a list query can filter on: as the site policy decides. */
export type ViewableSites = { everything: true } | { everything: false; siteIds: string[] };

export async function viewableSites(ctx: AccessContext, organizationId: string): Promise<ViewableSites> {
  if (ctx.integration) {
    const sites = await integrationViewableSites(ctx, ctx.integration, organizationId);
    return sites === 'all' ? { everything: true } : { everything: false, siteIds: sites };
  }
  return (await siteRole(ctx, organizationId)) !== null ? { everything: true } : { everything: false, siteIds: [] };
}

/** An integration's token holds only what its scopes give within its installation (integration-scopes.ts); a user, what the policies give. */
export async function permissionsOf<K extends Target['kind']>(
  ctx: AccessContext,
  target: TargetOf<K>,
): Promise<PermissionsByKind[K]> {
  if (ctx.integration) return integrationPermissions<K>(ctx, ctx.integration, target);
  return (POLICIES[target.kind as K] as Policy<K>)(ctx, target);
}

/**
 * Decides one access: 404 when the caller may not even see the target (never revealing that it
 * exists), 403 when they see it but lack `action`. Returns the permissions for reuse by presenters.
 */
export async function authorize<K extends Target['kind']>(
  ctx: AccessContext,
  target: TargetOf<K>,
  action: keyof PermissionsByKind[K],
  notFoundName: string = target.kind,
): Promise<PermissionsByKind[K]> {
  const perms = await permissionsOf<K>(ctx, target);
  const p = perms as unknown as Record<string, boolean>;
  if (!p.view) throw notFound(notFoundName);
  if (!p[action as string]) throw forbidden(`you need the "${String(action)}" permission on this ${target.kind}`);
  return perms;
}

/**
 * Which content of an organization the caller can view, in a form a list query can filter on
 * (see domain/access/viewable.ts). It follows `contentRole`: a full member inherits at least
 * their organization role, which is at least `read`, on everything; a guest sees only content
 * granted to them (directly or through a team) and whatever lies inside a granted collection.
 */
export type ViewableContent = { everything: true } | { everything: false; collectionIds: string[]; spaceIds: string[] };

export async function viewableContent(ctx: AccessContext, organizationId: string): Promise<ViewableContent> {
  if (ctx.integration) {
    const spaces = await integrationViewableSpaces(ctx, ctx.integration, organizationId);
    return spaces === 'all' ? { everything: true } : { everything: false, collectionIds: [], spaceIds: spaces };
  }
  const member = await ctx.membership(organizationId);
  if (member && member.role !== null) return { everything: true };
  if (!member) return { everything: false, collectionIds: [], spaceIds: [] };
  const grants = await ctx.grants();
  const collectionIds = await ctx.collectionsWithin(
    organizationId,
    grants.filter((g) => g.targetKind === 'collection').map((g) => g.targetId),
  );
  const spaceIds = grants.filter((g) => g.targetKind === 'space').map((g) => g.targetId);
  return { everything: false, collectionIds, spaceIds };
}

/**
 * Which teams of an organization a user can administer, in a form a list query can filter on. It
 * follows the 'team' case above: an organization admin administers every team, any other member
 * only the teams they own, a non-member none.
 */
export type AdministeredTeams = 'all' | 'owned' | 'none';

export async function administeredTeams(ctx: AccessContext, organizationId: string): Promise<AdministeredTeams> {
  const m = await ctx.membership(organizationId);
  if (!m) return 'none';
  return m.role === 'admin' ? 'all' : 'owned';
}
