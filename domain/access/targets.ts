/** What the one authorization function judges (a target per resource kind) and the permissions it answers for each. */
import type { Collection } from '../../entities/Collection';
import type { Integration } from '../../entities/Integration';
import type { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import type { OpenAPISpec } from '../../entities/OpenAPISpec';
import type { Organization } from '../../entities/Organization';
import type { Site } from '../../entities/Site';
import type { Space } from '../../entities/Space';
import type { Team } from '../../entities/Team';

/** A site visibility a verified credential of the request satisfies (domain/sites/visitors.ts checks them). */
export type SitePass = 'share-link' | 'visitor-auth';

export type Target =
  /** only its id decides (the caller's membership), so a read need not load the row */
  | { kind: 'organization'; organization: Pick<Organization, 'id'> }
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
  | { kind: 'publishedSite'; site: Site; passes: SitePass[] }
  | { kind: 'integration'; integration: Integration }
  | { kind: 'integrationInstallation'; integration: Integration; installation: IntegrationInstallation };

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
export interface CollectionPermissions {
  view: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  create: boolean;
}
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
export interface TeamPermissions {
  view: boolean;
  admin: boolean;
}
export interface OpenAPISpecPermissions {
  view: boolean;
  edit: boolean;
}
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
export interface PublishedSitePermissions {
  view: boolean;
  viewAll: boolean;
}
/** `view`, `edit`, `reply`, `delete` are shown on comments and replies; `resolve` and `react` are enforced only. */
export interface CommentPermissions {
  view: boolean;
  edit: boolean;
  reply: boolean;
  delete: boolean;
  resolve: boolean;
  react: boolean;
}
export interface TranslationPermissions {
  view: boolean;
  edit: boolean;
}
/** GitBook's Integration.permissions is `{admin}`; `view` decides the 404. */
/** `listInstallations`: list its installations and their spaces and sites (GitBook: the integration's own token; here also its owner's admins). */
export interface IntegrationPermissions {
  view: boolean;
  admin: boolean;
  listInstallations: boolean;
}
/** `admin`: change or uninstall it. `issueToken`: mint an installation token (GitBook: the integration's own token only). */
export interface IntegrationInstallationPermissions {
  view: boolean;
  admin: boolean;
  issueToken: boolean;
}

export interface PermissionsByKind {
  organization: OrganizationPermissions;
  collection: CollectionPermissions;
  space: SpacePermissions;
  team: TeamPermissions;
  comment: CommentPermissions;
  translation: TranslationPermissions;
  openapiSpec: OpenAPISpecPermissions;
  site: SitePermissions;
  publishedSite: PublishedSitePermissions;
  integration: IntegrationPermissions;
  integrationInstallation: IntegrationInstallationPermissions;
}
export type TargetOf<K extends Target['kind']> = Extract<Target, { kind: K }>;
