/**
 * How the authorization matrix (test/authorization-matrix.ts) calls each operation: a valid request against
 * the world's objects (so no probe stops at a 400 before authorization), and for a write how a caller expected
 * to succeed gets a fresh object of its own (`fresh`), or `additive` when the write only adds to its container
 * (a new page in the space, a new team in the organization) and the world's request serves everyone.
 */
import { createFirstTokenLink, firstTokenUrl } from '../../domain/invites/first-token';
import { createLinkInvite } from '../../domain/invites/link-invites';
import type { Organization } from '../../entities/Organization';
import { addMember, unique } from '../factories';
import {
  ADAPTIVE_SCHEMA,
  type Column,
  DOCUMENT,
  type Fresh,
  publishBody,
  type Req,
  type World,
} from './authorization-world';

export interface Probe {
  req(w: World): Req;
  fresh?: (f: Fresh, caller: Column) => Promise<Req>;
  additive?: true;
}

const OPENAPI_TEXT = 'openapi: 3.1.0\ninfo: {title: Replaced, version: "2"}\npaths: {}\n';
const text = (name: string): Req['raw'] => ({ bytes: Buffer.from(unique(`${name} `)), type: 'text/plain' });

const get = (path: string, query?: Record<string, string>): Req => ({ method: 'get', path, query });
const post = (path: string, body?: unknown): Req => ({ method: 'post', path, body });
const put = (path: string, body?: unknown): Req => ({ method: 'put', path, body });
const patch = (path: string, body?: unknown): Req => ({ method: 'patch', path, body });
const del = (path: string): Req => ({ method: 'delete', path });

// paths of the world's objects
const org = (w: World) => `/v1/orgs/${w.org}`;
const space = (w: World, id = w.space) => `/v1/spaces/${id}`;
const cr = (w: World, id = w.changeRequest) => `${space(w)}/change-requests/${id}`;
const content = (w: World, changeRequest?: string) =>
  changeRequest ? `${cr(w, changeRequest)}/content` : `${space(w)}/content`;
const revision = (w: World) => `${space(w)}/revisions/${w.revision}`;
const spaceComments = (w: World) => `${space(w)}/comments`;
const crComments = (w: World, id = w.changeRequest) => `${cr(w, id)}/comments`;
const team = (w: World, id = w.team) => `${org(w)}/teams/${id}`;
const spec = (w: World, slug = w.specSlug) => `${org(w)}/openapi/${slug}`;
const site = (w: World, id = w.site.id) => `${org(w)}/sites/${id}`;
const translation = (w: World, id = w.translation) => `${org(w)}/translations/${id}`;
const integration = (w: World, name = w.integration) => `/v1/integrations/${name}`;
const installation = (w: World, id = w.installation, name = w.integration) =>
  `${integration(w, name)}/installations/${id}`;

/** Content operations exist on the space and on its change request: each written once for both. */
function contentProbes(form: 'Space' | 'ChangeRequest'): Record<string, Probe> {
  const at = (w: World) => content(w, form === 'Space' ? undefined : w.changeRequest);
  const freshHead = async (f: Fresh) => (form === 'Space' ? undefined : f.w.changeRequest);
  return {
    [`get${form}Content`]: { req: (w) => get(at(w)) },
    [`list${form}Pages`]: { req: (w) => get(`${at(w)}/pages`) },
    [`create${form}Page`]: {
      req: (w) => post(`${at(w)}/pages`, { title: 'New page', markdown: 'New.' }),
      additive: true,
    },
    [`get${form}PageById`]: { req: (w) => get(`${at(w)}/page/${w.page}`) },
    [`update${form}Page`]: {
      req: (w) => patch(`${at(w)}/page/${w.page}`, { title: 'Renamed page' }),
      fresh: async (f) => {
        const head = await freshHead(f);
        return patch(`${content(f.w, head)}/page/${await f.page(head)}`, { title: 'Renamed page' });
      },
    },
    [`delete${form}Page`]: {
      req: (w) => del(`${at(w)}/page/${w.page}`),
      fresh: async (f) => {
        const head = await freshHead(f);
        return del(`${content(f.w, head)}/page/${await f.page(head)}`);
      },
    },
    [`get${form}PageByPath`]: { req: (w) => get(`${at(w)}/path/${w.pagePath}`) },
    [`list${form}Files`]: { req: (w) => get(`${at(w)}/files`) },
    [`upload${form}File`]: {
      req: (w) => ({ method: 'post', path: `${at(w)}/files`, query: { name: 'upload.txt' }, raw: text('upload') }),
      additive: true,
    },
    [`get${form}FileById`]: { req: (w) => get(`${at(w)}/files/${w.file}`) },
    [`delete${form}File`]: {
      req: (w) => del(`${at(w)}/files/${w.file}`),
      fresh: async (f) => {
        const head = await freshHead(f);
        return del(`${content(f.w, head)}/files/${await f.file(head)}`);
      },
    },
    [`list${form}PageLinks`]: { req: (w) => get(`${at(w)}/page/${w.page}/links`) },
    [`list${form}PageBacklinks`]: { req: (w) => get(`${at(w)}/page/${w.page}/backlinks`) },
    [`list${form}FileBacklinks`]: { req: (w) => get(`${at(w)}/files/${w.file}/backlinks`) },
  };
}

/** Comment operations exist on the space and on its change request. */
function commentProbes(form: 'Space' | 'ChangeRequest'): Record<string, Probe> {
  const cs = form === 'ChangeRequest';
  const base = (w: World) => (cs ? crComments(w) : spaceComments(w));
  const comment = (w: World) => (cs ? w.crComment : w.comment);
  const reply = (w: World) => (cs ? w.crReply : w.reply);
  const head = (f: Fresh) => (cs ? f.w.changeRequest : undefined);
  const reaction = { addedReactions: ['👍'] };
  return {
    [`list${form}Comments`]: { req: (w) => get(base(w)) },
    [`create${form}Comment`]: { req: (w) => post(base(w), { body: { markdown: 'A comment.' } }), additive: true },
    [`get${form}Comment`]: { req: (w) => get(`${base(w)}/${comment(w)}`) },
    [`update${form}Comment`]: {
      req: (w) => put(`${base(w)}/${comment(w)}`, reaction),
      fresh: async (f) => put(`${base(f.w)}/${await f.comment(head(f))}`, reaction),
    },
    [`delete${form}Comment`]: {
      req: (w) => del(`${base(w)}/${comment(w)}`),
      fresh: async (f) => del(`${base(f.w)}/${await f.comment(head(f))}`),
    },
    [`create${form}CommentReply`]: {
      req: (w) => post(`${base(w)}/${comment(w)}/replies`, { body: { markdown: 'A reply.' } }),
      additive: true,
    },
    [`list${form}CommentReplies`]: { req: (w) => get(`${base(w)}/${comment(w)}/replies`) },
    [`get${form}CommentReply`]: { req: (w) => get(`${base(w)}/${comment(w)}/replies/${reply(w)}`) },
    [`update${form}CommentReply`]: {
      req: (w) => put(`${base(w)}/${comment(w)}/replies/${reply(w)}`, reaction),
      fresh: async (f) => put(`${base(f.w)}/${comment(f.w)}/replies/${await f.reply(head(f))}`, reaction),
    },
    [`delete${form}CommentReply`]: {
      req: (w) => del(`${base(w)}/${comment(w)}/replies/${reply(w)}`),
      fresh: async (f) => del(`${base(f.w)}/${comment(f.w)}/replies/${await f.reply(head(f))}`),
    },
    [`list${form}Commenters`]: { req: (w) => get(`${cs ? cr(w) : space(w)}/commenters`) },
  };
}

/** Grants on the space and on the collection, to a user or a team. */
function grantProbes(): Record<string, Probe> {
  const probes: Record<string, Probe> = {};
  for (const kind of ['Space', 'Collection'] as const)
    for (const principal of ['User', 'Team'] as const) {
      const path = (w: World, target: string) =>
        `/v1/${kind === 'Space' ? 'spaces' : 'collections'}/${target}/permissions/${principal === 'User' ? `users/${w.spare.user.id}` : `teams/${w.team}`}`;
      const world = (w: World) => (kind === 'Space' ? w.space : w.collection);
      const who = principal === 'User' ? 'user' : 'team';
      probes[`grant${kind}${principal}Role`] = {
        req: (w) => put(path(w, world(w)), { role: 'edit' }),
        fresh: async (f) => put(path(f.w, kind === 'Space' ? await f.space() : await f.collection()), { role: 'edit' }),
      };
      probes[`revoke${kind}${principal}Role`] = {
        req: (w) => del(path(w, world(w))),
        fresh: async (f) => del(path(f.w, kind === 'Space' ? await f.spaceGrant(who) : await f.collectionGrant(who))),
      };
      probes[`update${principal}PermissionIn${kind}`] = {
        req: (w) => patch(path(w, world(w)), { role: 'edit' }),
        fresh: async (f) =>
          patch(path(f.w, kind === 'Space' ? await f.space() : await f.collection()), { role: 'edit' }),
      };
      probes[`list${principal}PermissionsIn${kind}`] = {
        req: (w) => get(`/v1/${kind === 'Space' ? 'spaces' : 'collections'}/${world(w)}/permissions/${who}s`),
      };
    }
  for (const kind of ['Space', 'Collection'] as const) {
    const base = (id: string) => `/v1/${kind === 'Space' ? 'spaces' : 'collections'}/${id}/permissions`;
    const world = (w: World) => (kind === 'Space' ? w.space : w.collection);
    probes[`listPermissionsAggregateIn${kind}`] = { req: (w) => get(`${base(world(w))}/aggregate`) };
    probes[`inviteTo${kind}`] = {
      req: (w) => post(base(world(w)), { role: 'edit', users: [w.spare.user.id], teams: [w.team] }),
      fresh: async (f) =>
        post(base(kind === 'Space' ? await f.space() : await f.collection()), {
          role: 'edit',
          users: [f.w.spare.user.id],
          teams: [f.w.team],
        }),
    };
  }
  probes.listPermissionsAggregateInSite = { req: (w) => get(`${site(w)}/permissions/aggregate`) };
  return probes;
}

/** Installations on spaces and on sites. */
function contentInstallationProbes(kind: 'space' | 'site'): Record<string, Probe> {
  const K = kind === 'space' ? 'Space' : 'Site';
  const selected = (w: World) => (kind === 'space' ? w.selectedSpace : w.selectedSite);
  const target = (w: World) => (kind === 'space' ? { space: w.space } : { siteId: w.site.id });
  const change = { externalIds: ['matrix'] };
  return {
    [`listIntegration${K}Installations`]: { req: (w) => get(`${integration(w)}/${kind}s`) },
    [`listIntegrationInstallation${K}s`]: { req: (w) => get(`${installation(w)}/${kind}s`) },
    [`installIntegrationOn${K}`]: {
      req: (w) => post(`${installation(w)}/${kind}s`, target(w)),
      fresh: async (f) =>
        post(
          `${installation(f.w)}/${kind}s`,
          kind === 'space' ? { space: await f.space() } : { siteId: await f.bareSite() },
        ),
    },
    [`getIntegration${K}Installation`]: { req: (w) => get(`${installation(w)}/${kind}s/${selected(w)}`) },
    [`updateIntegration${K}Installation`]: {
      req: (w) => patch(`${installation(w)}/${kind}s/${selected(w)}`, change),
      fresh: async (f) => patch(`${installation(f.w)}/${kind}s/${await f.installedOn(kind)}`, change),
    },
    [`uninstallIntegrationFrom${K}`]: {
      req: (w) => del(`${installation(w)}/${kind}s/${selected(w)}`),
      fresh: async (f) => del(`${installation(f.w)}/${kind}s/${await f.installedOn(kind)}`),
    },
  };
}

/** A site write: against the world's site, and for the admin against a fresh site of the same shape. */
function siteWrite(req: (w: World, s: World['site']) => Req, published = true): Probe {
  return {
    req: (w) => req(w, w.site),
    fresh: async (f) => req(f.w, await f.site(published)),
  };
}

export const PROBES: Record<string, Probe> = {
  // the caller
  getApiInformation: { req: () => get('/v1/') },
  getAuthenticatedUser: { req: () => get('/v1/user') },
  getUser: { req: (w) => get(`/v1/users/${w.spare.user.id}`) },
  updateUser: { req: (w) => patch(`/v1/users/${w.spare.user.id}`, { displayName: 'Renamed' }) },
  issueApiToken: { req: () => post('/v1/user/tokens', { label: 'matrix' }), additive: true },
  revokeApiToken: {
    req: (w) => del(`/v1/user/tokens/${w.adminTokenId}`),
    fresh: async (f) => del(`/v1/user/tokens/${await f.adminToken()}`),
  },

  // organizations
  listOrganizations: { req: () => get('/v1/orgs') },
  createOrganization: { req: () => post('/v1/orgs', { title: 'Matrix org' }), additive: true },
  getOrganization: { req: (w) => get(org(w)) },
  updateOrganization: {
    req: (w) => patch(org(w), { title: 'Renamed org' }),
    fresh: async (f) => patch(`/v1/orgs/${await f.organization()}`, { title: 'Renamed org' }),
  },
  listOrganizationsForEmailDomain: { req: () => get('/v1/email-domains/example.test/orgs') },
  pingOrganization: { req: (w) => post(`${org(w)}/ping`), additive: true },
  searchOrganizationContent: { req: (w) => get(`${org(w)}/search`, { query: 'guide' }) },

  // collections
  listCollections: { req: (w) => get(`${org(w)}/collections`) },
  createCollection: { req: (w) => post(`${org(w)}/collections`, { title: 'New collection' }), additive: true },
  getCollection: { req: (w) => get(`/v1/collections/${w.collection}`) },
  updateCollection: {
    req: (w) => patch(`/v1/collections/${w.collection}`, { title: 'Renamed' }),
    fresh: async (f) => patch(`/v1/collections/${await f.collection()}`, { title: 'Renamed' }),
  },
  deleteCollection: {
    req: (w) => del(`/v1/collections/${w.collection}`),
    fresh: async (f) => del(`/v1/collections/${await f.collection()}`),
  },
  listCollectionSpaces: { req: (w) => get(`/v1/collections/${w.collection}/spaces`) },
  moveCollection: {
    req: (w) =>
      post(`/v1/collections/${w.collection}/move`, { position: { after: { type: 'space', space: w.space2 } } }),
    fresh: async (f) =>
      post(`/v1/collections/${await f.collection()}/move`, {
        position: { before: { type: 'collection', collection: f.w.collection } },
      }),
  },
  transferCollection: {
    req: (w) => post(`/v1/collections/${w.collection}/transfer`, { organization: w.otherOrg }),
    fresh: async (f) => post(`/v1/collections/${await f.collection()}/transfer`, { organization: f.w.otherOrg }),
  },

  // spaces
  listSpaces: { req: (w) => get(`${org(w)}/spaces`) },
  createSpace: { req: (w) => post(`${org(w)}/spaces`, { title: 'New space' }), additive: true },
  getSpace: { req: (w) => get(space(w)) },
  updateSpace: {
    req: (w) => patch(space(w), { title: 'Renamed space' }),
    fresh: async (f) => patch(space(f.w, await f.space()), { title: 'Renamed space' }),
  },
  deleteSpace: { req: (w) => del(space(w)), fresh: async (f) => del(space(f.w, await f.space())) },
  restoreSpace: {
    req: (w) => post(`${space(w, w.deletedSpace)}/restore`),
    fresh: async (f) => post(`${space(f.w, await f.deletedSpace())}/restore`),
  },
  duplicateSpace: { req: (w) => post(`${space(w)}/duplicate`), additive: true },
  moveSpace: {
    req: (w) => post(`${space(w)}/move`, { parent: null }),
    fresh: async (f) => post(`${space(f.w, await f.space())}/move`, { parent: null }),
  },
  transferSpace: {
    req: (w) => post(`${space(w)}/transfer`, { organization: w.otherOrg }),
    fresh: async (f) => post(`${space(f.w, await f.space())}/transfer`, { organization: f.w.otherOrg }),
  },

  // members
  listMembers: { req: (w) => get(`${org(w)}/members`) },
  getMember: { req: (w) => get(`${org(w)}/members/${w.spare.user.id}`) },
  updateMember: {
    req: (w) => patch(`${org(w)}/members/${w.spare.user.id}`, { role: 'comment' }),
    fresh: async (f) => patch(`${org(f.w)}/members/${await f.member()}`, { role: 'comment' }),
  },
  removeMember: {
    req: (w) => del(`${org(w)}/members/${w.spare.user.id}`),
    fresh: async (f) => del(`${org(f.w)}/members/${await f.member()}`),
  },
  setMemberSso: {
    req: (w) => post(`${org(w)}/members/${w.spare.user.id}/sso`),
    fresh: async (f) => post(`${org(f.w)}/members/${await f.member()}/sso`),
  },
  listMemberTeams: { req: (w) => get(`${org(w)}/members/${w.spare.user.id}/teams`) },
  listMemberSpaces: { req: (w) => get(`${org(w)}/members/${w.spare.user.id}/spaces`) },
  deleteLinkInvite: {
    req: (w) => del(`${org(w)}/link-invites/${w.linkInvite}`),
    fresh: async (f) => del(`${org(f.w)}/link-invites/${await f.linkInvite()}`),
  },
  inviteUsersToOrganization: {
    req: (w) => post(`${org(w)}/invites`, { emails: [`${unique('matrix')}@example.test`] }),
    additive: true,
  },
  redeemInviteToken: {
    req: () => post('/v1/invite-tokens/dpi_matrix'),
    // a link of its own each time: it issues its token once
    fresh: async (f) => {
      const user = await addMember(f.server.ds, { id: f.w.org } as never, null);
      const link = await createFirstTokenLink(f.server.ds.manager, f.server.config, f.w.org, user.user.id, new Date());
      return post(new URL(firstTokenUrl(f.server.config, link.id)).pathname);
    },
  },
  listOrganizationInviteLinks: { req: (w) => get(`${org(w)}/link-invites`) },
  createOrganizationInvite: { req: (w) => post(`${org(w)}/link-invites`, { role: 'read' }), additive: true },
  getOrganizationInviteLink: { req: (w) => get(`${org(w)}/link-invites/${w.linkInvite}`) },
  updateOrganizationInviteById: {
    req: (w) => patch(`${org(w)}/link-invites/${w.linkInvite}`, { role: 'comment' }),
    fresh: async (f) => patch(`${org(f.w)}/link-invites/${await f.linkInvite()}`, { role: 'comment' }),
  },
  joinOrganizationWithInvite: {
    req: (w) => post(`${org(w)}/invites/${w.linkInvite}`),
    // a guest link into an organization of its own each time, so that joining leaves the world's members as they are
    fresh: async (f) => {
      const organizationId = await f.organization();
      const organization = { id: organizationId } as Organization;
      const settings = { role: null, expiresAt: null, disabled: false };
      const invite = await createLinkInvite(
        f.server.ds.manager,
        organizationId,
        f.w.admin.user.id,
        { kind: 'organization', organization },
        settings,
      );
      return post(`/v1/orgs/${organizationId}/invites/${invite.id}`);
    },
  },

  // teams
  listTeams: { req: (w) => get(`${org(w)}/teams`) },
  putTeam: { req: (w) => put(`${org(w)}/teams`, { title: unique('Team ') }), additive: true },
  getTeam: { req: (w) => get(team(w)) },
  updateTeam: {
    req: (w) => patch(team(w), { title: unique('Renamed team ') }),
    fresh: async (f) => patch(team(f.w, await f.team()), { title: unique('Renamed team ') }),
  },
  deleteTeam: { req: (w) => del(team(w)), fresh: async (f) => del(team(f.w, await f.team())) },
  listTeamMembers: { req: (w) => get(`${team(w)}/members`) },
  updateTeamMembers: {
    req: (w) => put(`${team(w)}/members`, { remove: [w.spare.user.id] }),
    fresh: async (f) => put(`${team(f.w, await f.team(true))}/members`, { remove: [f.w.spare.user.id] }),
  },
  putTeamMember: {
    req: (w) => put(`${team(w)}/members/${w.spare.user.id}`, { role: 'owner' }),
    fresh: async (f) => put(`${team(f.w, await f.team())}/members/${f.w.spare.user.id}`, { role: 'owner' }),
  },
  removeTeamMember: {
    req: (w) => del(`${team(w)}/members/${w.spare.user.id}`),
    fresh: async (f) => del(`${team(f.w, await f.team(true))}/members/${f.w.spare.user.id}`),
  },

  // SSO
  listSamlProviders: { req: (w) => get(`${org(w)}/saml`) },
  createSamlProvider: { req: (w) => post(`${org(w)}/saml`, { label: 'Another IdP' }), additive: true },
  getSamlProvider: { req: (w) => get(`${org(w)}/saml/${w.samlProvider}`) },
  updateSamlProvider: {
    req: (w) => patch(`${org(w)}/saml/${w.samlProvider}`, { label: 'Renamed IdP' }),
    fresh: async (f) => patch(`${org(f.w)}/saml/${await f.samlProvider()}`, { label: 'Renamed IdP' }),
  },
  deleteSamlProvider: {
    req: (w) => del(`${org(w)}/saml/${w.samlProvider}`),
    fresh: async (f) => del(`${org(f.w)}/saml/${await f.samlProvider()}`),
  },
  listSsoEntries: { req: (w) => get(`${org(w)}/sso`) },

  ...grantProbes(),

  // content of the space and of its change request, their links, search, templates
  ...contentProbes('Space'),
  ...contentProbes('ChangeRequest'),
  listSpaceLinks: { req: (w) => get(`${space(w)}/links`) },
  searchSpaceContent: { req: (w) => get(`${space(w)}/search`, { query: 'guide' }) },
  listTemplates: { req: () => get('/v1/templates') },
  applySpaceTemplate: { req: (w) => post(`${content(w)}/template`, { id: 'knowledge-base' }), additive: true },
  importContent: {
    req: (w) => post(`${content(w)}/import`, { url: 'https://docs.example.com/probe', source: 'website' }),
    fresh: async (f) =>
      post(`${space(f.w, await f.space())}/content/import`, {
        url: 'https://docs.example.com/probe',
        source: 'website',
      }),
  },
  importContentInChangeRequest: {
    req: (w) =>
      post(`${content(w, w.changeRequest)}/import`, { url: 'https://docs.example.com/probe', source: 'website' }),
    fresh: async (f) =>
      post(`${content(f.w, await f.changeRequest())}/import`, {
        url: 'https://docs.example.com/probe',
        source: 'website',
      }),
  },

  // change requests
  listChangeRequests: { req: (w) => get(`${space(w)}/change-requests`) },
  createChangeRequest: { req: (w) => post(`${space(w)}/change-requests`, { subject: 'New' }), additive: true },
  getChangeRequest: { req: (w) => get(cr(w)) },
  updateChangeRequest: {
    req: (w) => patch(cr(w), { subject: 'Renamed' }),
    fresh: async (f) => patch(cr(f.w, await f.changeRequest()), { subject: 'Renamed' }),
  },
  mergeChangeRequest: {
    req: (w) => post(`${cr(w)}/merge`),
    fresh: async (f) => post(`${cr(f.w, await f.changeRequest())}/merge`),
  },
  updateChangeRequestFromSpace: {
    req: (w) => post(`${cr(w)}/update`),
    fresh: async (f) => post(`${cr(f.w, await f.changeRequest())}/update`),
  },
  getChangeRequestPDF: { req: (w) => get(`${cr(w)}/pdf`) },
  getSpacePDF: { req: (w) => get(`${space(w)}/pdf`) },
  listChangeRequestLinks: { req: (w) => get(`${cr(w)}/links`) },
  listChangeRequestRequestedReviewers: { req: (w) => get(`${cr(w)}/requested-reviewers`) },
  // no user asked: the subject alone changes
  requestChangeRequestReviewers: {
    req: (w) => post(`${cr(w)}/requested-reviewers`, { users: [], subject: 'Review me' }),
    additive: true,
  },
  removeChangeRequestRequestedReviewer: {
    req: (w) => del(`${cr(w)}/requested-reviewers/${w.spare.user.id}`),
    fresh: async (f) => del(`${cr(f.w, await f.changeRequest())}/requested-reviewers/${f.w.spare.user.id}`),
  },
  listChangeRequestReviews: { req: (w) => get(`${cr(w)}/reviews`) },
  // the world's change request is the admin's, who may not approve it
  submitChangeRequestReview: {
    req: (w) => post(`${cr(w)}/reviews`, { status: 'changes-requested' }),
    additive: true,
  },
  getChangeRequestReview: { req: (w) => get(`${cr(w)}/reviews/${w.review}`) },
  listChangeRequestContributors: { req: (w) => get(`${cr(w)}/contributors`) },

  // a revision of S by id
  getRevisionContent: { req: (w) => get(revision(w)) },
  listRevisionPages: { req: (w) => get(`${revision(w)}/pages`) },
  getRevisionPageById: { req: (w) => get(`${revision(w)}/page/${w.page}`) },
  getRevisionPageDocument: { req: (w) => get(`${revision(w)}/page/${w.page}/document`) },
  getRevisionPageByPath: { req: (w) => get(`${revision(w)}/path/${w.pagePath}`) },
  listRevisionFiles: { req: (w) => get(`${revision(w)}/files`) },
  getRevisionFileById: { req: (w) => get(`${revision(w)}/files/${w.file}`) },
  getRevisionChanges: { req: (w) => get(`${revision(w)}/changes`) },
  getChangeRequestChanges: { req: (w) => get(`${cr(w)}/changes`) },

  // comments
  ...commentProbes('Space'),
  ...commentProbes('ChangeRequest'),

  // translations and imports
  listTranslations: { req: (w) => get(`${org(w)}/translations`) },
  createTranslation: {
    req: (w) => post(`${org(w)}/translations`, { language: 'de', source: { space: w.space, language: 'en' } }),
    additive: true,
  },
  getTranslation: { req: (w) => get(translation(w)) },
  updateTranslation: {
    req: (w) => put(translation(w), { instructions: DOCUMENT('Be brief.') }),
    fresh: async (f) => put(translation(f.w, await f.translation()), { instructions: DOCUMENT('Be brief.') }),
  },
  deleteTranslation: {
    req: (w) => del(translation(w)),
    fresh: async (f) => del(translation(f.w, await f.translation())),
  },
  runTranslation: {
    req: (w) => post(`${translation(w)}/run`),
    fresh: async (f) => post(`${translation(f.w, await f.translation())}/run`),
  },
  listImportRuns: { req: (w) => get(`/v1/org/${w.org}/imports`) },
  getImportRun: { req: (w) => get(`/v1/org/${w.org}/imports/${w.importRun}`) },
  cancelImportRun: {
    req: (w) => post(`/v1/org/${w.org}/imports/${w.importRun}/cancel`),
    fresh: async (f) => post(`/v1/org/${f.w.org}/imports/${await f.importRun()}/cancel`),
  },

  // OpenAPI
  listOpenAPISpecs: { req: (w) => get(`${org(w)}/openapi`) },
  createOpenAPISpec: {
    req: (w) => post(`${org(w)}/openapi`, { slug: unique('new-'), source: { text: OPENAPI_TEXT } }),
    additive: true,
  },
  getOpenAPISpecBySlug: { req: (w) => get(spec(w)) },
  createOrUpdateOpenAPISpecBySlug: {
    req: (w) => put(spec(w), { source: { text: OPENAPI_TEXT } }),
    fresh: async (f) => put(spec(f.w, await f.spec()), { source: { text: OPENAPI_TEXT } }),
  },
  updateOpenAPISpecBySlug: {
    req: (w) => patch(spec(w), { visibility: 'private' }),
    fresh: async (f) => patch(spec(f.w, await f.spec()), { visibility: 'public' }),
  },
  deleteOpenAPISpecBySlug: { req: (w) => del(spec(w)), fresh: async (f) => del(spec(f.w, await f.spec())) },
  listOpenAPISpecVersions: { req: (w) => get(`${spec(w)}/versions`) },
  getLatestOpenAPISpecVersion: { req: (w) => get(`${spec(w)}/versions/latest`) },
  getLatestOpenAPISpecVersionContent: { req: (w) => get(`${spec(w)}/versions/latest/content`) },
  getOpenAPISpecVersionById: { req: (w) => get(`${spec(w)}/versions/${w.specVersion}`) },
  getOpenAPISpecVersionContentById: { req: (w) => get(`${spec(w)}/versions/${w.specVersion}/content`) },
  getPublishedOpenAPISpec: { req: (w) => get(`/v1/published/openapi/${w.org}/${w.specSlug}`) },
  getPublishedOpenAPISpecVersion: {
    req: (w) => get(`/v1/published/openapi/${w.org}/${w.specSlug}/versions/${w.specVersion}`),
  },

  // sites
  listSites: { req: (w) => get(`${org(w)}/sites`) },
  createSite: { req: (w) => post(`${org(w)}/sites`, { title: 'New site' }), additive: true },
  getSiteById: { req: (w) => get(site(w)) },
  updateSiteById: siteWrite((w, s) => patch(site(w, s.id), { title: 'Renamed site' })),
  deleteSiteById: siteWrite((w, s) => del(site(w, s.id))),
  publishSite: siteWrite((w, s) => post(`${site(w, s.id)}/publish`), false),
  unpublishSite: siteWrite((w, s) => post(`${site(w, s.id)}/unpublish`)),
  listSiteSections: { req: (w) => get(`${site(w)}/sections`) },
  addSectionToSite: siteWrite((w, s) => post(`${site(w, s.id)}/sections`, { spaceId: w.space2, title: 'Another' })),
  updateSiteSectionById: siteWrite((w, s) => patch(`${site(w, s.id)}/sections/${s.sectionX}`, { title: 'Renamed' })),
  deleteSiteSectionById: siteWrite((w, s) => del(`${site(w, s.id)}/sections/${s.sectionX}`)),
  moveSiteSection: siteWrite((w, s) => post(`${site(w, s.id)}/sections/${s.sectionY}/move`, {})),
  listSiteSectionGroups: { req: (w) => get(`${site(w)}/section-groups`) },
  addSectionGroupToSite: siteWrite((w, s) => post(`${site(w, s.id)}/section-groups`, { title: 'Another group' })),
  updateSiteSectionGroupById: siteWrite((w, s) =>
    patch(`${site(w, s.id)}/section-groups/${s.group}`, { title: 'Renamed group' }),
  ),
  deleteSiteSectionGroupById: siteWrite((w, s) => del(`${site(w, s.id)}/section-groups/${s.group}`)),
  addSectionToGroup: siteWrite((w, s) =>
    post(`${site(w, s.id)}/section-groups/${s.group}/sections`, { sectionId: s.sectionY }),
  ),
  removeSectionFromGroup: siteWrite((w, s) => del(`${site(w, s.id)}/section-groups/${s.group}/sections/${s.sectionX}`)),
  moveSiteSectionGroup: siteWrite((w, s) => post(`${site(w, s.id)}/section-groups/${s.group}/move`, {})),
  listSiteSpaces: { req: (w) => get(`${site(w)}/site-spaces`) },
  addSpaceToSite: siteWrite((w, s) =>
    post(`${site(w, s.id)}/site-spaces`, { spaceId: w.selectedSpace, sectionId: s.sectionY }),
  ),
  updateSiteSpaceById: siteWrite((w, s) => patch(`${site(w, s.id)}/site-spaces/${s.siteSpace}`, { path: 'renamed' })),
  deleteSiteSpaceById: siteWrite((w, s) => del(`${site(w, s.id)}/site-spaces/${s.siteSpace}`)),
  moveSiteSpace: siteWrite((w, s) => post(`${site(w, s.id)}/site-spaces/${s.siteSpace}/move`, {})),
  getSiteStructure: { req: (w) => get(`${site(w)}/structure`) },
  sortSiteStructure: siteWrite((w, s) =>
    patch(`${site(w, s.id)}/structure/sort`, { item: { type: 'site-section', id: s.sectionY } }),
  ),
  getPublishedContentSite: { req: (w) => get(`${site(w)}/published`) },
  listSiteShareLinks: { req: (w) => get(`${site(w)}/share-links`) },
  createSiteShareLink: siteWrite((w, s) => post(`${site(w, s.id)}/share-links`, { name: 'Another link' })),
  updateSiteShareLinkById: siteWrite((w, s) =>
    patch(`${site(w, s.id)}/share-links/${s.shareLink}`, { name: 'Renamed link' }),
  ),
  deleteSiteShareLinkById: siteWrite((w, s) => del(`${site(w, s.id)}/share-links/${s.shareLink}`)),
  getSitePublishingAuthById: { req: (w) => get(`${site(w)}/publishing/auth`) },
  regenerateSitePublishingAuthById: siteWrite((w, s) => post(`${site(w, s.id)}/publishing/auth/regenerate`)),
  getSiteAdaptiveSchema: { req: (w) => get(`${site(w)}/adaptive-schema`) },
  updateSiteAdaptiveSchema: siteWrite((w, s) =>
    put(`${site(w, s.id)}/adaptive-schema`, { jsonSchema: ADAPTIVE_SCHEMA }),
  ),
  listSiteAdaptiveTemplateConditions: { req: (w) => get(`${site(w)}/adaptive-schema/template-conditions`) },

  // integrations
  listIntegrations: { req: () => get('/v1/integrations') },
  getIntegrationByName: { req: (w) => get(integration(w)) },
  publishIntegration: {
    req: (w) => post(integration(w), publishBody(w.org)),
    fresh: async (f) => post(`/v1/integrations/${unique('matrix-new-')}`, publishBody(f.w.org)),
  },
  unpublishIntegration: {
    req: (w) => del(integration(w)),
    fresh: async (f) => del(integration(f.w, await f.integration())),
  },
  getIntegrationScript: { req: (w) => get(`${integration(w)}/script.js`) },
  getIntegrationAsset: { req: (w) => get(`${integration(w)}/assets/icon.png`) },
  listIntegrationInstallations: { req: (w) => get(`${integration(w)}/installations`) },
  installIntegration: {
    req: (w) => post(`${integration(w)}/installations`, { organization: w.org }),
    fresh: async (f) => post(`${integration(f.w, await f.integration())}/installations`, { organization: f.w.org }),
  },
  getIntegrationInstallationById: { req: (w) => get(installation(w)) },
  updateIntegrationInstallation: {
    req: (w) => patch(installation(w), { externalIds: ['matrix'] }),
    fresh: async (f) => {
      const fresh = await f.installation();
      return patch(installation(f.w, fresh.id, fresh.name), { externalIds: ['matrix'] });
    },
  },
  uninstallIntegration: {
    req: (w) => del(installation(w)),
    fresh: async (f) => {
      const fresh = await f.installation();
      return del(installation(f.w, fresh.id, fresh.name));
    },
  },
  ...contentInstallationProbes('space'),
  ...contentInstallationProbes('site'),
  listIntegrationEvents: { req: (w) => get(`${integration(w)}/events`) },
  getIntegrationEvent: { req: (w) => get(`${integration(w)}/events/${w.event}`) },
  setIntegrationDevelopmentMode: {
    req: (w) => put(`${integration(w)}/dev`, { tunnelUrl: 'https://tunnel.example.com' }),
    fresh: async (f) =>
      put(`${integration(f.w, await f.integration())}/dev`, { tunnelUrl: 'https://tunnel.example.com' }),
  },
  disableIntegrationDevelopmentMode: {
    req: (w) => del(`${integration(w)}/dev`),
    fresh: async (f) => del(`${integration(f.w, await f.integration())}/dev`),
  },
  createIntegrationInstallationToken: {
    req: (w) => post(`${installation(w)}/tokens`),
    fresh: async (f) => post(`${installation(f.w, await f.installationOfIntegration())}/tokens`),
  },

  // blobs: the signed URL is the credential
  downloadBlob: { req: (w) => ({ method: 'get', path: w.blobUrl }) },
};
