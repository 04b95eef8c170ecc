/**
 * The one authorization function (DESIGN §6). Every route asks `authorize`, every `permissions`
 * object is `permissionsOf`: both come from the same effective-role computation below.
 *
 * Effective role on content: an organization admin is admin everywhere; otherwise the content's
 * defaultLevel, inherited space → collection → … → the member's organization role, raised by any
 * explicit grant to the user or one of their teams on the content or an ancestor collection.
 * A guest (null organization role) holds only what grants give.
 */
import { forbidden, notFound } from '../errors';
import { Collection } from '../../entities/Collection';
import type { OpenAPISpec } from '../../entities/OpenAPISpec';
import type { Organization } from '../../entities/Organization';
import type { Site } from '../../entities/Site';
import type { Space } from '../../entities/Space';
import type { SitePass } from '../sites/visitors';
import type { Team } from '../../entities/Team';
import { TeamMember } from '../../entities/TeamMember';
import { AccessContext } from './context';
import { atLeast, maxRole, Role } from './roles';

export type Target =
  | { kind: 'organization'; organization: Organization }
  | { kind: 'collection'; collection: Collection }
  | { kind: 'space'; space: Space }
  | { kind: 'team'; team: Team }
  /** a comment or a comment reply, judged by its space and its author */
  | { kind: 'comment'; space: Space; authorId: string }
  /** a translation, judged by its source space */
  | { kind: 'translation'; space: Space }
  | { kind: 'openapiSpec'; spec: OpenAPISpec }
  | { kind: 'site'; site: Site }
  /** a site's published view; `passes`: what the request presents for it, already checked (domain/sites/visitors.ts) */
  | { kind: 'publishedSite'; site: Site; passes: SitePass[] };

export interface OrganizationPermissions {
  view: boolean;
  /** GitBook 0.202: may open the organization in the app */
  access: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}
export interface CollectionPermissions { view: boolean; admin: boolean; viewInviteLinks: boolean; create: boolean }
export interface SpacePermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  edit: boolean;
  triggerGitSync: boolean;
  comment: boolean;
  merge: boolean;
  review: boolean;
  installIntegration: boolean;
}
export interface TeamPermissions { view: boolean; admin: boolean }
export interface OpenAPISpecPermissions { view: boolean; edit: boolean }
/** GitBook 0.202's eight site permissions. */
export interface SitePermissions {
  view: boolean;
  access: boolean;
  edit: boolean;
  create: boolean;
  admin: boolean;
  installIntegration: boolean;
  viewAdaptiveSchema: boolean;
  editAdaptiveSchema: boolean;
}
/** `viewAll`: sees every item of the structure, whatever its condition; a visitor sees those their claims meet. */
export interface PublishedSitePermissions { view: boolean; viewAll: boolean }
/** `view`, `edit`, `reply`, `delete` are shown on comments and replies; `resolve` and `react` are enforced only. */
export interface CommentPermissions { view: boolean; edit: boolean; reply: boolean; delete: boolean; resolve: boolean; react: boolean }
export interface TranslationPermissions { view: boolean; edit: boolean }

interface PermissionsByKind {
  organization: OrganizationPermissions;
  collection: CollectionPermissions;
  space: SpacePermissions;
  team: TeamPermissions;
  comment: CommentPermissions;
  translation: TranslationPermissions;
  openapiSpec: OpenAPISpecPermissions;
  site: SitePermissions;
  publishedSite: PublishedSitePermissions;
}
type TargetOf<K extends Target['kind']> = Extract<Target, { kind: K }>;

async function contentRole(ctx: AccessContext, organizationId: string, own: { kind: 'space' | 'collection'; id: string; defaultLevel: Role | null; parentId: string | null }): Promise<Role | null> {
  const member = await ctx.membership(organizationId);
  if (!member) return null;
  if (member.role === 'admin') return 'admin';
  const chain = await ctx.collectionChain(organizationId, own.parentId);
  let inherited: Role | null = null;
  if (member.role) {
    inherited = own.defaultLevel ?? chain.find((c) => c.defaultLevel)?.defaultLevel ?? member.role;
  }
  let granted: Role | null = null;
  for (const g of await ctx.grantsOn(own.kind, own.id)) granted = maxRole(granted, g.role);
  for (const c of chain) for (const g of await ctx.grantsOn('collection', c.id)) granted = maxRole(granted, g.role);
  return maxRole(inherited, granted);
}

export async function spaceRole(ctx: AccessContext, space: Space): Promise<Role | null> {
  return contentRole(ctx, space.organizationId, { kind: 'space', id: space.id, defaultLevel: space.defaultLevel, parentId: space.parentId });
}

export async function collectionRole(ctx: AccessContext, collection: Collection): Promise<Role | null> {
  return contentRole(ctx, collection.organizationId, { kind: 'collection', id: collection.id, defaultLevel: collection.defaultLevel, parentId: collection.parentId });
}

/** The role a caller holds on every site of an organization: their organization role (a guest holds none). */
async function siteRole(ctx: AccessContext, organizationId: string): Promise<Role | null> {
  return (await ctx.membership(organizationId))?.role ?? null;
}

/** Whether the caller sees the organization's sites, for a list query to filter on: as the 'site' case below decides. */
export async function viewsSites(ctx: AccessContext, organizationId: string): Promise<boolean> {
  return (await siteRole(ctx, organizationId)) !== null;
}

export async function permissionsOf<K extends Target['kind']>(ctx: AccessContext, target: TargetOf<K>): Promise<PermissionsByKind[K]> {
  return (await computePermissions(ctx, target as Target)) as PermissionsByKind[K];
}

async function computePermissions(ctx: AccessContext, target: Target): Promise<PermissionsByKind[Target['kind']]> {
  switch (target.kind) {
    case 'organization': {
      const m = await ctx.membership(target.organization.id);
      const isMember = !!m;
      const isUser = !!m && m.role !== null; // a guest is not a full member
      const admin = m?.role === 'admin';
      return {
        view: isMember,
        access: isMember,
        admin,
        ownTeam: admin,
        createContent: atLeast(m?.role, 'create'),
        createOpenAPISpec: atLeast(m?.role, 'create'),
        ingestConversations: admin,
        viewBilling: admin,
        listMembers: isUser,
        listTeams: isUser,
        listIntegrations: isUser,
        listInstallations: admin,
        installIntegration: admin,
      };
    }
    case 'collection': {
      const role = await collectionRole(ctx, target.collection);
      return {
        view: atLeast(role, 'read'),
        admin: atLeast(role, 'admin'),
        viewInviteLinks: atLeast(role, 'admin'),
        create: atLeast(role, 'create'),
      };
    }
    case 'space': {
      const role = await spaceRole(ctx, target.space);
      return {
        view: atLeast(role, 'read'),
        access: atLeast(role, 'read'),
        admin: atLeast(role, 'admin'),
        viewInviteLinks: atLeast(role, 'admin'),
        edit: atLeast(role, 'edit'),
        triggerGitSync: atLeast(role, 'edit'),
        comment: atLeast(role, 'comment'),
        merge: atLeast(role, 'review'),
        review: atLeast(role, 'review'),
        installIntegration: atLeast(role, 'admin'),
      };
    }
    case 'team': {
      const m = await ctx.membership(target.team.organizationId);
      if (!m) return { view: false, admin: false };
      if (m.role === 'admin') return { view: true, admin: true };
      const own = await ctx.db.findOneBy(TeamMember, { teamId: target.team.id, userId: ctx.userId });
      return { view: m.role !== null || !!own, admin: own?.role === 'owner' };
    }
    case 'comment': {
      // Words belong to their author: only they rewrite them (while they may still comment); a space
      // admin may delete anyone's comment but not edit it. Discussing (reply, resolve, react) needs `comment`.
      const role = await spaceRole(ctx, target.space);
      const discuss = atLeast(role, 'comment');
      const own = discuss && target.authorId === ctx.userId;
      return {
        view: atLeast(role, 'read'),
        edit: own,
        reply: discuss,
        delete: own || atLeast(role, 'admin'),
        resolve: discuss,
        react: discuss,
      };
    }
    case 'translation': {
      // Seen by whoever sees its source space; managed (and run) by the source space's admins.
      const role = await spaceRole(ctx, target.space);
      return { view: atLeast(role, 'read'), edit: atLeast(role, 'admin') };
    }
    case 'openapiSpec': {
      // An organization's specs are seen by its full members and edited by those who may create them.
      const m = await ctx.membership(target.spec.organizationId);
      return { view: !!m && m.role !== null, edit: atLeast(m?.role, 'create') };
    }
    case 'site': {
      // A site belongs to its organization as a whole: its full members see it, with their organization
      // role; only admins change it (settings, structure, publishing, adaptive schema).
      const role = await siteRole(ctx, target.site.organizationId);
      return {
        view: role !== null,
        access: role !== null,
        edit: atLeast(role, 'edit'),
        create: atLeast(role, 'create'),
        admin: role === 'admin',
        installIntegration: role === 'admin',
        viewAdaptiveSchema: role !== null,
        editAdaptiveSchema: role === 'admin',
      };
    }
    case 'publishedSite': {
      // Members who view the site read its published view, all of it. Anyone else, from any organization,
      // needs the pass its visibility asks for (a share link's key, a visitor token) and sees what their claims show.
      const { site, passes } = target;
      if (!site.published) return { view: false, viewAll: false };
      const member = ((await computePermissions(ctx, { kind: 'site', site })) as SitePermissions).view;
      return { view: member || passes.includes(site.visibility as SitePass), viewAll: member };
    }
  }
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
export type ViewableContent =
  | { everything: true }
  | { everything: false; collectionIds: string[]; spaceIds: string[] };

export async function viewableContent(ctx: AccessContext, organizationId: string): Promise<ViewableContent> {
  const member = await ctx.membership(organizationId);
  if (member && member.role !== null) return { everything: true };
  if (!member) return { everything: false, collectionIds: [], spaceIds: [] };
  const grants = await ctx.grants();
  const grantedCollections = new Set(grants.filter((g) => g.targetKind === 'collection').map((g) => g.targetId));
  const collectionIds: string[] = [];
  for (const c of await ctx.db.findBy(Collection, { organizationId })) {
    const chain = await ctx.collectionChain(organizationId, c.id);
    if (chain.some((a) => grantedCollections.has(a.id))) collectionIds.push(c.id);
  }
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
