/**
 * The authorization matrix: for every operation of /v1/openapi.json, keyed by its operationId,
 * the class of answer each kind of caller gets. test/api/authorization-matrix.test.ts builds one world
 * (test/support/authorization-world.ts) and checks every cell; an operation missing here fails it, so a new
 * route is classified when it is written.
 *
 * The cells follow the wire conventions: `401` without a valid token; `404` for what the caller may not see
 * (never revealing another organization's resource); `403` for what they see without the permission; a
 * DELETE of what they cannot see answers 204 and changes nothing (`204-noop`); `ok` is any 2xx. `n/a`: the
 * operation takes no visitor token.
 *
 * The world (each row's target): organization O with collection C, space S in C, a change request of S,
 * pages, a file, comments and replies written by the `comment` member, team T, a SAML provider, a link invite,
 * an OpenAPI spec (public, with a version), a translation and an import run of S, site W (published,
 * visitor-auth, sections, a group, site spaces, a share link), and integration I (unlisted, O's) installed in
 * O on selected space S_sel and site W_sel, and in the outsider's organization.
 *
 * Columns, in order (abbreviated in the rows' header):
 *   anon  anonymous             no token
 *   out   outsider              an admin of another organization
 *   gst   guest                 a guest of O with no grant
 *   gstR  guestRead             a guest of O with a `read` grant on C, so on S and what S holds (no grant
 *                               exists on an organization, team, site or integration: there it is a guest)
 *   read … adm                  members of O with that role: read, comment, edit, review, create, admin
 *   ins0  installationNoScopes  an installation token in O, on every space and site, of an integration with no scope
 *   insS  installationScoped    the token of I's installation in O, with every scope an operation needs, on
 *                               S_sel and W_sel only: outside its selection for S and W
 *   insX  otherInstallation     the token of I's installation in the outsider's organization
 *   intg  integration           I's own token
 *   vis   visitor               a user of no organization presenting a visitor token of W (only
 *                               getPublishedContentSite takes one; n/a elsewhere)
 */
import { COLUMNS } from './support/authorization-world';

export const CELLS = ['ok', '401', '403', '404', '204-noop', 'n/a'] as const;
export type Cell = (typeof CELLS)[number];
export type Row = readonly Cell[];

/** A row written as its 15 cells separated by spaces, in the order of COLUMNS (`noop` stands for `204-noop`). */
function row(cells: string): Row {
  const parsed = cells
    .trim()
    .split(/\s+/)
    .map((c) => (c === 'noop' ? '204-noop' : c));
  if (parsed.length !== COLUMNS.length || parsed.some((c) => !(CELLS as readonly string[]).includes(c)))
    throw new Error(`a row has ${COLUMNS.length} cells among ${CELLS.join(', ')}: ${cells}`);
  return parsed as Cell[];
}

// biome-ignore format: each row lines up under the header
const ROWS = {
  //                         anon out  gst  gstR read comm edit rev  crea adm  ins0 insS insX intg vis
  /** Any token: the caller's own things, the catalogue. */
  ANY_TOKEN:            row('401  ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   n/a'),
  /** No token needed: the capability is in the URL or the thing is public. */
  PUBLIC:               row('ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   n/a'),
  /** The caller's own account (userOnly): an integration's token has none, whatever the path names. */
  USER_ONLY:            row('401  ok   ok   ok   ok   ok   ok   ok   ok   ok   403  403  403  403  n/a'),

  // The organization O
  ORG_VIEW:             row('401  404  ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   404  404  n/a'),
  /** Full members (members, teams, a member's spaces and teams). */
  ORG_MEMBERS:          row('401  404  403  403  ok   ok   ok   ok   ok   ok   403  403  404  404  n/a'),
  ORG_CREATE:           row('401  404  403  403  403  403  403  403  ok   ok   403  403  404  404  n/a'),
  ORG_ADMIN:            row('401  404  403  403  403  403  403  403  403  ok   403  403  404  404  n/a'),
  ORG_ADMIN_DELETE:     row('401  noop 403  403  403  403  403  403  403  ok   403  403  noop noop n/a'),
  PING:                 row('401  404  ok   ok   ok   ok   ok   ok   ok   ok   403  403  403  403  n/a'),
  /** A user who shares an organization with the caller. */
  USER_OF_ORG:          row('401  404  ok   ok   ok   ok   ok   ok   ok   ok   404  404  404  404  n/a'),
  /** Another user's profile: seen (403) by those who share an organization with them; an integration has no user. */
  OTHER_USER_PROFILE:   row('401  404  403  403  403  403  403  403  403  403  403  403  403  403  n/a'),
  /** One of the admin's tokens: no one else sees it. */
  ADMIN_TOKEN_DELETE:   row('401  noop noop noop noop noop noop noop noop ok   403  403  403  403  n/a'),

  // Content: collection C, space S in C (and what S holds), the soft-deleted space of C
  CONTENT_READ:         row('401  404  404  ok   ok   ok   ok   ok   ok   ok   404  404  404  404  n/a'),
  CONTENT_COMMENT:      row('401  404  404  403  403  ok   ok   ok   ok   ok   404  404  404  404  n/a'),
  CONTENT_EDIT:         row('401  404  404  403  403  403  ok   ok   ok   ok   404  404  404  404  n/a'),
  CONTENT_EDIT_DELETE:  row('401  noop noop 403  403  403  ok   ok   ok   ok   noop noop noop noop n/a'),
  CONTENT_REVIEW:       row('401  404  404  403  403  403  403  ok   ok   ok   404  404  404  404  n/a'),
  /** View on S and `create` in C, where the copy goes. */
  CONTENT_DUPLICATE:    row('401  404  404  403  403  403  403  403  ok   ok   404  404  404  404  n/a'),
  CONTENT_ADMIN:        row('401  404  404  403  403  403  403  403  403  ok   404  404  404  404  n/a'),
  CONTENT_ADMIN_DELETE: row('401  noop noop 403  403  403  403  403  403  ok   noop noop noop noop n/a'),
  /** Comments and replies are their author's (the `comment` member) or a space admin's to delete. */
  COMMENT_DELETE:       row('401  noop noop 403  403  ok   403  403  403  ok   noop noop noop noop n/a'),

  // Team T: seen by full members and its own members (no caller is one), administered by O's admins
  TEAM_VIEW:            row('401  404  404  404  ok   ok   ok   ok   ok   ok   404  404  404  404  n/a'),
  TEAM_ADMIN:           row('401  404  404  404  403  403  403  403  403  ok   404  404  404  404  n/a'),
  TEAM_ADMIN_DELETE:    row('401  noop noop noop 403  403  403  403  403  ok   noop noop noop noop n/a'),

  // OpenAPI spec: full members see it, `create` edits it; the scoped token's openapi scopes reach O's specs
  OPENAPI_CREATE:       row('401  404  403  403  403  403  403  403  ok   ok   403  ok   404  404  n/a'),
  SPEC_VIEW:            row('401  404  404  404  ok   ok   ok   ok   ok   ok   404  ok   404  404  n/a'),
  SPEC_EDIT:            row('401  404  404  404  403  403  403  403  ok   ok   404  ok   404  404  n/a'),
  SPEC_EDIT_DELETE:     row('401  noop noop noop 403  403  403  403  ok   ok   noop ok   noop noop n/a'),

  // Site W: full members see it, admins change it; the scoped token's selection is W_sel, not W
  SITE_VIEW:            row('401  404  404  404  ok   ok   ok   ok   ok   ok   404  404  404  404  n/a'),
  SITE_ADMIN:           row('401  404  404  404  403  403  403  403  403  ok   404  404  404  404  n/a'),
  SITE_ADMIN_DELETE:    row('401  noop noop noop 403  403  403  403  403  ok   noop noop noop noop n/a'),
  PUBLISHED_SITE:       row('401  404  404  404  ok   ok   ok   ok   ok   ok   404  404  404  404  ok'),

  // Integration I (unlisted: everyone sees it) and its installation in O (seen by O's full members, I's own tokens)
  SEEN_BY_ALL:          row('401  ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   ok   n/a'),
  INTEGRATION_LIST:     row('401  403  403  403  403  403  403  403  403  ok   403  403  403  ok   n/a'),
  INTEGRATION_ADMIN:    row('401  403  403  403  403  403  403  403  403  ok   403  403  403  403  n/a'),
  INSTALLATION_VIEW:    row('401  404  404  404  ok   ok   ok   ok   ok   ok   404  ok   404  ok   n/a'),
  INSTALLATION_ADMIN:   row('401  404  404  404  403  403  403  403  403  ok   404  403  404  403  n/a'),
  INSTALLATION_DELETE:  row('401  noop noop noop 403  403  403  403  403  ok   noop 403  noop 403  n/a'),
  INSTALLATION_TOKEN:   row('401  404  404  404  403  403  403  403  403  403  404  403  404  ok   n/a'),
  /** Installing on S or W: their admins; the scoped token sees the installation, not S or W. */
  INSTALL_ON_CONTENT:   row('401  404  404  404  403  403  403  403  403  ok   404  404  404  404  n/a'),
  /** The installation on S_sel or W_sel: I's tokens see it, the admins of S_sel or W_sel change it. */
  INSTALLED_ON:         row('401  404  404  404  403  403  403  403  403  ok   404  403  404  403  n/a'),
  INSTALLED_ON_DELETE:  row('401  noop noop noop 403  403  403  403  403  ok   noop 403  noop 403  n/a'),
};
const {
  ANY_TOKEN,
  PUBLIC,
  USER_ONLY,
  ORG_VIEW,
  ORG_MEMBERS,
  ORG_CREATE,
  ORG_ADMIN,
  ORG_ADMIN_DELETE,
  PING,
  USER_OF_ORG,
  OTHER_USER_PROFILE,
  ADMIN_TOKEN_DELETE,
  CONTENT_READ,
  CONTENT_COMMENT,
  CONTENT_EDIT,
  CONTENT_EDIT_DELETE,
  CONTENT_REVIEW,
  CONTENT_DUPLICATE,
  CONTENT_ADMIN,
  CONTENT_ADMIN_DELETE,
  COMMENT_DELETE,
  TEAM_VIEW,
  TEAM_ADMIN,
  TEAM_ADMIN_DELETE,
  OPENAPI_CREATE,
  SPEC_VIEW,
  SPEC_EDIT,
  SPEC_EDIT_DELETE,
  SITE_VIEW,
  SITE_ADMIN,
  SITE_ADMIN_DELETE,
  PUBLISHED_SITE,
  SEEN_BY_ALL,
  INTEGRATION_LIST,
  INTEGRATION_ADMIN,
  INSTALLATION_VIEW,
  INSTALLATION_ADMIN,
  INSTALLATION_DELETE,
  INSTALLATION_TOKEN,
  INSTALL_ON_CONTENT,
  INSTALLED_ON,
  INSTALLED_ON_DELETE,
} = ROWS;

/** Every operation of /v1/openapi.json. */
export const MATRIX: Record<string, Row> = {
  // the API itself
  getApiInformation: PUBLIC,

  // the caller
  getAuthenticatedUser: ANY_TOKEN,
  getUser: USER_OF_ORG,
  updateUser: OTHER_USER_PROFILE,
  issueApiToken: USER_ONLY,
  revokeApiToken: ADMIN_TOKEN_DELETE,

  // organizations
  listOrganizations: ANY_TOKEN,
  createOrganization: USER_ONLY,
  getOrganization: ORG_VIEW,
  updateOrganization: ORG_ADMIN,
  listOrganizationsForEmailDomain: USER_ONLY,
  pingOrganization: PING,
  searchOrganizationContent: ORG_VIEW,

  // collections
  listCollections: ORG_VIEW,
  createCollection: ORG_CREATE,
  getCollection: CONTENT_READ,
  updateCollection: CONTENT_ADMIN,
  deleteCollection: CONTENT_ADMIN_DELETE,
  listCollectionSpaces: CONTENT_READ,
  moveCollection: CONTENT_ADMIN,
  transferCollection: CONTENT_ADMIN,

  // spaces
  listSpaces: ORG_VIEW,
  createSpace: ORG_CREATE,
  getSpace: CONTENT_READ,
  updateSpace: CONTENT_ADMIN,
  deleteSpace: CONTENT_ADMIN_DELETE,
  restoreSpace: CONTENT_ADMIN,
  duplicateSpace: CONTENT_DUPLICATE,
  moveSpace: CONTENT_ADMIN,
  transferSpace: CONTENT_ADMIN,

  // members
  listMembers: ORG_MEMBERS,
  getMember: ORG_MEMBERS,
  updateMember: ORG_ADMIN,
  removeMember: ORG_ADMIN_DELETE,
  setMemberSso: ORG_ADMIN,
  listMemberTeams: ORG_MEMBERS,
  listMemberSpaces: ORG_MEMBERS,
  deleteLinkInvite: ORG_ADMIN_DELETE,
  inviteUsersToOrganization: ORG_ADMIN,
  redeemInviteToken: PUBLIC,
  listOrganizationInviteLinks: ORG_ADMIN,
  createOrganizationInvite: ORG_ADMIN,
  getOrganizationInviteLink: ORG_ADMIN,
  updateOrganizationInviteById: ORG_ADMIN,
  joinOrganizationWithInvite: USER_ONLY,

  // teams
  listTeams: ORG_MEMBERS,
  putTeam: ORG_ADMIN,
  getTeam: TEAM_VIEW,
  updateTeam: TEAM_ADMIN,
  deleteTeam: TEAM_ADMIN_DELETE,
  listTeamMembers: TEAM_VIEW,
  updateTeamMembers: TEAM_ADMIN,
  putTeamMember: TEAM_ADMIN,
  removeTeamMember: TEAM_ADMIN_DELETE,

  // SSO
  listSamlProviders: ORG_ADMIN,
  createSamlProvider: ORG_ADMIN,
  getSamlProvider: ORG_ADMIN,
  updateSamlProvider: ORG_ADMIN,
  deleteSamlProvider: ORG_ADMIN_DELETE,
  listSsoEntries: ORG_VIEW,

  // roles given on S and C, who can access S, C and W
  grantSpaceUserRole: CONTENT_ADMIN,
  revokeSpaceUserRole: CONTENT_ADMIN_DELETE,
  grantSpaceTeamRole: CONTENT_ADMIN,
  revokeSpaceTeamRole: CONTENT_ADMIN_DELETE,
  grantCollectionUserRole: CONTENT_ADMIN,
  revokeCollectionUserRole: CONTENT_ADMIN_DELETE,
  grantCollectionTeamRole: CONTENT_ADMIN,
  revokeCollectionTeamRole: CONTENT_ADMIN_DELETE,
  updateUserPermissionInSpace: CONTENT_ADMIN,
  updateTeamPermissionInSpace: CONTENT_ADMIN,
  updateUserPermissionInCollection: CONTENT_ADMIN,
  updateTeamPermissionInCollection: CONTENT_ADMIN,
  inviteToSpace: CONTENT_ADMIN,
  inviteToCollection: CONTENT_ADMIN,
  listUserPermissionsInSpace: CONTENT_ADMIN,
  listTeamPermissionsInSpace: CONTENT_ADMIN,
  listPermissionsAggregateInSpace: CONTENT_ADMIN,
  listUserPermissionsInCollection: CONTENT_ADMIN,
  listTeamPermissionsInCollection: CONTENT_ADMIN,
  listPermissionsAggregateInCollection: CONTENT_ADMIN,
  listPermissionsAggregateInSite: SITE_ADMIN,

  // the content of S
  getSpaceContent: CONTENT_READ,
  listSpacePages: CONTENT_READ,
  createSpacePage: CONTENT_EDIT,
  getSpacePageById: CONTENT_READ,
  updateSpacePage: CONTENT_EDIT,
  deleteSpacePage: CONTENT_EDIT_DELETE,
  getSpacePageByPath: CONTENT_READ,
  listSpaceFiles: CONTENT_READ,
  uploadSpaceFile: CONTENT_EDIT,
  getSpaceFileById: CONTENT_READ,
  deleteSpaceFile: CONTENT_EDIT_DELETE,
  listSpaceLinks: CONTENT_READ,
  listSpacePageLinks: CONTENT_READ,
  listSpacePageBacklinks: CONTENT_READ,
  listSpaceFileBacklinks: CONTENT_READ,
  searchSpaceContent: CONTENT_READ,
  listTemplates: ANY_TOKEN,
  applySpaceTemplate: CONTENT_EDIT,
  importContent: CONTENT_EDIT,

  // the change request of S and its content
  listChangeRequests: CONTENT_READ,
  createChangeRequest: CONTENT_EDIT,
  getChangeRequest: CONTENT_READ,
  updateChangeRequest: CONTENT_EDIT,
  mergeChangeRequest: CONTENT_REVIEW,
  updateChangeRequestFromSpace: CONTENT_EDIT,
  getChangeRequestPDF: CONTENT_READ,
  getSpacePDF: CONTENT_READ,
  listChangeRequestLinks: CONTENT_READ,
  listChangeRequestRequestedReviewers: CONTENT_READ,
  requestChangeRequestReviewers: CONTENT_EDIT,
  removeChangeRequestRequestedReviewer: CONTENT_EDIT_DELETE,
  listChangeRequestReviews: CONTENT_READ,
  submitChangeRequestReview: CONTENT_REVIEW,
  getChangeRequestReview: CONTENT_READ,
  listChangeRequestContributors: CONTENT_READ,
  getChangeRequestContent: CONTENT_READ,
  listChangeRequestPages: CONTENT_READ,
  createChangeRequestPage: CONTENT_EDIT,
  getChangeRequestPageById: CONTENT_READ,
  updateChangeRequestPage: CONTENT_EDIT,
  deleteChangeRequestPage: CONTENT_EDIT_DELETE,
  getChangeRequestPageByPath: CONTENT_READ,
  listChangeRequestFiles: CONTENT_READ,
  uploadChangeRequestFile: CONTENT_EDIT,
  getChangeRequestFileById: CONTENT_READ,
  deleteChangeRequestFile: CONTENT_EDIT_DELETE,
  listChangeRequestPageLinks: CONTENT_READ,
  listChangeRequestPageBacklinks: CONTENT_READ,
  listChangeRequestFileBacklinks: CONTENT_READ,
  importContentInChangeRequest: CONTENT_EDIT,

  // a revision of S by id
  getRevisionContent: CONTENT_READ,
  listRevisionPages: CONTENT_READ,
  getRevisionPageById: CONTENT_READ,
  getRevisionPageDocument: CONTENT_READ,
  getRevisionPageByPath: CONTENT_READ,
  listRevisionFiles: CONTENT_READ,
  getRevisionFileById: CONTENT_READ,
  getRevisionChanges: CONTENT_READ,
  getChangeRequestChanges: CONTENT_READ,

  // comments of S and of its change request
  listSpaceComments: CONTENT_READ,
  createSpaceComment: CONTENT_COMMENT,
  getSpaceComment: CONTENT_READ,
  updateSpaceComment: CONTENT_COMMENT,
  deleteSpaceComment: COMMENT_DELETE,
  createSpaceCommentReply: CONTENT_COMMENT,
  listSpaceCommentReplies: CONTENT_READ,
  getSpaceCommentReply: CONTENT_READ,
  updateSpaceCommentReply: CONTENT_COMMENT,
  deleteSpaceCommentReply: COMMENT_DELETE,
  listSpaceCommenters: CONTENT_READ,
  listChangeRequestComments: CONTENT_READ,
  createChangeRequestComment: CONTENT_COMMENT,
  getChangeRequestComment: CONTENT_READ,
  updateChangeRequestComment: CONTENT_COMMENT,
  deleteChangeRequestComment: COMMENT_DELETE,
  createChangeRequestCommentReply: CONTENT_COMMENT,
  listChangeRequestCommentReplies: CONTENT_READ,
  getChangeRequestCommentReply: CONTENT_READ,
  updateChangeRequestCommentReply: CONTENT_COMMENT,
  deleteChangeRequestCommentReply: COMMENT_DELETE,
  listChangeRequestCommenters: CONTENT_READ,

  // translations and imports of S
  listTranslations: ORG_VIEW,
  createTranslation: CONTENT_ADMIN,
  getTranslation: CONTENT_READ,
  updateTranslation: CONTENT_ADMIN,
  deleteTranslation: CONTENT_ADMIN_DELETE,
  runTranslation: CONTENT_ADMIN,
  listImportRuns: ORG_VIEW,
  getImportRun: CONTENT_READ,
  cancelImportRun: CONTENT_EDIT,

  // OpenAPI
  listOpenAPISpecs: ORG_VIEW,
  createOpenAPISpec: OPENAPI_CREATE,
  getOpenAPISpecBySlug: SPEC_VIEW,
  // asks createOpenAPISpec before the slug, so a taken slug and a free one answer alike
  createOrUpdateOpenAPISpecBySlug: OPENAPI_CREATE,
  updateOpenAPISpecBySlug: SPEC_EDIT,
  deleteOpenAPISpecBySlug: SPEC_EDIT_DELETE,
  listOpenAPISpecVersions: SPEC_VIEW,
  getLatestOpenAPISpecVersion: SPEC_VIEW,
  getLatestOpenAPISpecVersionContent: SPEC_VIEW,
  getOpenAPISpecVersionById: SPEC_VIEW,
  getOpenAPISpecVersionContentById: SPEC_VIEW,
  getPublishedOpenAPISpec: PUBLIC,
  getPublishedOpenAPISpecVersion: PUBLIC,

  // sites
  listSites: ORG_VIEW,
  createSite: ORG_ADMIN,
  getSiteById: SITE_VIEW,
  updateSiteById: SITE_ADMIN,
  deleteSiteById: SITE_ADMIN_DELETE,
  publishSite: SITE_ADMIN,
  unpublishSite: SITE_ADMIN,
  listSiteSections: SITE_VIEW,
  addSectionToSite: SITE_ADMIN,
  updateSiteSectionById: SITE_ADMIN,
  deleteSiteSectionById: SITE_ADMIN_DELETE,
  moveSiteSection: SITE_ADMIN,
  listSiteSectionGroups: SITE_VIEW,
  addSectionGroupToSite: SITE_ADMIN,
  updateSiteSectionGroupById: SITE_ADMIN,
  deleteSiteSectionGroupById: SITE_ADMIN_DELETE,
  addSectionToGroup: SITE_ADMIN,
  removeSectionFromGroup: SITE_ADMIN_DELETE,
  moveSiteSectionGroup: SITE_ADMIN,
  listSiteSpaces: SITE_VIEW,
  addSpaceToSite: SITE_ADMIN,
  updateSiteSpaceById: SITE_ADMIN,
  deleteSiteSpaceById: SITE_ADMIN_DELETE,
  moveSiteSpace: SITE_ADMIN,
  getSiteStructure: SITE_VIEW,
  sortSiteStructure: SITE_ADMIN,
  getPublishedContentSite: PUBLISHED_SITE,
  listSiteShareLinks: SITE_ADMIN,
  createSiteShareLink: SITE_ADMIN,
  updateSiteShareLinkById: SITE_ADMIN,
  deleteSiteShareLinkById: SITE_ADMIN_DELETE,
  getSitePublishingAuthById: SITE_ADMIN,
  regenerateSitePublishingAuthById: SITE_ADMIN,
  getSiteAdaptiveSchema: SITE_VIEW,
  updateSiteAdaptiveSchema: SITE_ADMIN,
  listSiteAdaptiveTemplateConditions: SITE_VIEW,

  // integrations
  listIntegrations: ANY_TOKEN,
  getIntegrationByName: SEEN_BY_ALL,
  publishIntegration: ORG_ADMIN,
  unpublishIntegration: INTEGRATION_ADMIN,
  getIntegrationScript: PUBLIC,
  getIntegrationAsset: PUBLIC,
  listIntegrationInstallations: INTEGRATION_LIST,
  installIntegration: ORG_ADMIN,
  getIntegrationInstallationById: INSTALLATION_VIEW,
  updateIntegrationInstallation: INSTALLATION_ADMIN,
  uninstallIntegration: INSTALLATION_DELETE,
  listIntegrationSpaceInstallations: INTEGRATION_LIST,
  listIntegrationInstallationSpaces: INSTALLATION_VIEW,
  installIntegrationOnSpace: INSTALL_ON_CONTENT,
  getIntegrationSpaceInstallation: INSTALLATION_VIEW,
  updateIntegrationSpaceInstallation: INSTALLED_ON,
  uninstallIntegrationFromSpace: INSTALLED_ON_DELETE,
  listIntegrationSiteInstallations: INTEGRATION_LIST,
  listIntegrationInstallationSites: INSTALLATION_VIEW,
  installIntegrationOnSite: INSTALL_ON_CONTENT,
  getIntegrationSiteInstallation: INSTALLATION_VIEW,
  updateIntegrationSiteInstallation: INSTALLED_ON,
  uninstallIntegrationFromSite: INSTALLED_ON_DELETE,
  listIntegrationEvents: INTEGRATION_ADMIN,
  getIntegrationEvent: INTEGRATION_ADMIN,
  setIntegrationDevelopmentMode: INTEGRATION_ADMIN,
  disableIntegrationDevelopmentMode: INTEGRATION_ADMIN,
  createIntegrationInstallationToken: INSTALLATION_TOKEN,

  // blobs
  downloadBlob: PUBLIC,
};
