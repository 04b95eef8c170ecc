/**
 * What an integration's token may do: it is a new kind of caller. Its bot user is never a
 * member, so no role applies: each permission is granted only when the target lies within the
 * token's reach (its installation's organization, and the installation's selected spaces and
 * sites) and the integration declared a scope that gives it (SCOPE_PERMISSIONS). Everything else is
 * refused: the 404 when `view` is not granted, else the 403. docs/decisions.md has the table in words.
 */
import type { IntegrationScope } from '../integrations/vocabulary';
import type { AccessContext } from './context';
import type { IntegrationPrincipal } from './integration-principal';
import type { PermissionsByKind, Target, TargetOf } from './targets';

/** Granted to any token whose reach covers the target, whatever its scopes. */
const IN_REACH = 'in reach';
/** Granted, in reach, to the integration's own token only (not to an installation token), on its own integration and installations. */
const OWN_TOKEN = 'own token';
/** A permission is granted by any one of its scopes (GitBook's, vocabulary.ts); `[]`: never granted to an integration. */
type Grant = readonly IntegrationScope[] | typeof IN_REACH | typeof OWN_TOKEN;

const CONTENT_READ: Grant = ['space:content:read', 'space:content:write'];
const CONTENT_WRITE: Grant = ['space:content:write'];
const SITE_READ: Grant = ['site:metadata:read', 'site:adaptive:read', 'site:adaptive:write'];
const NEVER: Grant = [];

/** `own`: the target is the token's own integration or one of its installations. */
function holds(principal: IntegrationPrincipal, grant: Grant, own = false): boolean {
  if (grant === IN_REACH) return true;
  if (grant === OWN_TOKEN) return own && principal.installation === null;
  return grant.some((scope) => principal.scopes.includes(scope));
}

/** Every permission of every kind, so a new kind or permission does not compile until it is decided here. */
export const SCOPE_PERMISSIONS: { [K in Target['kind']]: { [P in keyof PermissionsByKind[K]]: Grant } } = {
  organization: {
    view: IN_REACH,
    access: NEVER,
    admin: NEVER,
    ownTeam: NEVER,
    createContent: NEVER,
    createOpenAPISpec: ['openapi:write'],
    ingestConversations: ['conversations:ingest'],
    viewBilling: NEVER,
    listMembers: NEVER,
    listTeams: NEVER,
    listIntegrations: NEVER,
    listInstallations: NEVER,
    installIntegration: NEVER,
  },
  collection: { view: CONTENT_READ, admin: NEVER, viewInviteLinks: NEVER, create: NEVER },
  space: {
    view: CONTENT_READ,
    access: CONTENT_READ,
    admin: NEVER,
    viewInviteLinks: NEVER,
    edit: CONTENT_WRITE,
    triggerGitSync: ['space:git:sync'],
    comment: NEVER,
    merge: CONTENT_WRITE,
    review: CONTENT_WRITE,
    installIntegration: NEVER,
  },
  team: { view: NEVER, admin: NEVER },
  comment: { view: CONTENT_READ, edit: NEVER, reply: NEVER, delete: NEVER, resolve: NEVER, react: NEVER },
  // GitBook's translations take a user's token
  translation: { view: NEVER, edit: NEVER },
  openapiSpec: { view: ['openapi:read', 'openapi:write'], edit: ['openapi:write'] },
  site: {
    view: SITE_READ,
    access: SITE_READ,
    edit: NEVER,
    create: NEVER,
    admin: NEVER,
    installIntegration: NEVER,
    viewAdaptiveSchema: ['site:adaptive:read', 'site:adaptive:write'],
    editAdaptiveSchema: ['site:adaptive:write'],
  },
  publishedSite: { view: SITE_READ, viewAll: SITE_READ },
  // its own integration (and the public ones), its installations: seen, never administered (publish, unpublish, dev mode take a user)
  integration: { view: IN_REACH, admin: NEVER, listInstallations: OWN_TOKEN },
  integrationInstallation: { view: IN_REACH, admin: NEVER, issueToken: OWN_TOKEN },
};

/** Whether the target lies in the token's installation: its organization, and there its selected spaces and sites. */
async function inReach(ctx: AccessContext, principal: IntegrationPrincipal, target: Target): Promise<boolean> {
  const installation = principal.installation;
  switch (target.kind) {
    case 'integration':
      return (
        !target.integration.deletedAt &&
        (target.integration.id === principal.integrationId || target.integration.visibility !== 'private')
      );
    case 'integrationInstallation':
      return (
        target.installation.integrationId === principal.integrationId &&
        (!installation || installation.id === target.installation.id)
      );
    default:
      if (!installation) return false;
  }
  switch (target.kind) {
    case 'organization':
      return target.organization.id === installation.organizationId;
    case 'team':
      return target.team.organizationId === installation.organizationId;
    case 'openapiSpec':
      return target.spec.organizationId === installation.organizationId;
    // a collection holds spaces: only an installation on all of them sees it
    case 'collection':
      return target.collection.organizationId === installation.organizationId && installation.spaceSelection === 'all';
    case 'space':
    case 'comment':
    case 'translation':
      return (
        target.space.organizationId === installation.organizationId &&
        (installation.spaceSelection === 'all' || (await ctx.installedOn('space')).has(target.space.id))
      );
    case 'site':
    case 'publishedSite':
      return (
        // a site's published view exists only while it is published, for an integration as for a member
        (target.kind === 'site' || target.site.published) &&
        target.site.organizationId === installation.organizationId &&
        (installation.siteSelection === 'all' || (await ctx.installedOn('site')).has(target.site.id))
      );
  }
}

export async function integrationPermissions<K extends Target['kind']>(
  ctx: AccessContext,
  principal: IntegrationPrincipal,
  target: TargetOf<K>,
): Promise<PermissionsByKind[K]> {
  const reach = await inReach(ctx, principal, target);
  const t = target as Target;
  const own =
    (t.kind === 'integration' && t.integration.id === principal.integrationId) ||
    (t.kind === 'integrationInstallation' && t.installation.integrationId === principal.integrationId);
  const grants = SCOPE_PERMISSIONS[target.kind as K] as Record<string, Grant>;
  const permissions: Record<string, boolean> = {};
  for (const [permission, grant] of Object.entries(grants)) {
    permissions[permission] = reach && holds(principal, grant, own);
  }
  return permissions as unknown as PermissionsByKind[K];
}

/** Which spaces (or sites) of the organization the token sees, for the list filters: all of them, or those its installation selected. */
async function viewable(
  ctx: AccessContext,
  principal: IntegrationPrincipal,
  organizationId: string,
  kind: 'space' | 'site',
): Promise<'all' | string[]> {
  const installation = principal.installation;
  if (
    !installation ||
    installation.organizationId !== organizationId ||
    !holds(principal, SCOPE_PERMISSIONS[kind].view)
  )
    return [];
  const selection = kind === 'space' ? installation.spaceSelection : installation.siteSelection;
  return selection === 'all' ? 'all' : [...(await ctx.installedOn(kind))];
}

export function integrationViewableSpaces(
  ctx: AccessContext,
  principal: IntegrationPrincipal,
  organizationId: string,
): Promise<'all' | string[]> {
  return viewable(ctx, principal, organizationId, 'space');
}

export function integrationViewableSites(
  ctx: AccessContext,
  principal: IntegrationPrincipal,
  organizationId: string,
): Promise<'all' | string[]> {
  return viewable(ctx, principal, organizationId, 'site');
}
