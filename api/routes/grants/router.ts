/**
 * Who holds which role on spaces, collections and sites, on GitBook's paths: the direct grants to users and teams,
 * the aggregates of everyone who can access, and the operations that give and take back roles (GitBook's PATCH and
 * invitation, and our PUT, all one rule: domain/grants/grants.ts). Only admins of the content list or change them.
 */
import type { ZodObject, ZodRawShape, z } from 'zod';
import { authorize } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { type ContentNode, collectionNode, spaceNode } from '../../../domain/access/roles-of';
import { directGrantsQuery, GrantPrincipal, GrantTarget, removeGrant, setGrants } from '../../../domain/grants/grants';
import {
  accessKey,
  contentAccess,
  grantedTeams,
  grantedUsers,
  siteAccess,
  usersById,
} from '../../../domain/grants/permission-lists';
import type { ContentGrant } from '../../../entities/ContentGrant';
import { inTransaction } from '../../../platform/db/transactions';
import { loadCollection, loadSpace } from '../../loaders';
import { pageInMemory, paginate, type SortKey } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import {
  presentTeamContentPermission,
  presentUserContentAccess,
  presentUserContentPermission,
  presentUserSitePermission,
  teamContentPermissionSchema,
  userContentAccessSchema,
  userContentPermissionSchema,
  userSitePermissionSchema,
} from '../../presenters/content-permission';
import { presentTeams } from '../../presenters/team';
import { Urls } from '../../presenters/urls';
import { viewableSite } from '../sites/access';
import { siteParams } from '../sites/schema';
import {
  aggregateQuery,
  collectionParams,
  collectionTeamParams,
  collectionUserParams,
  inviteBody,
  listGrantsQuery,
  patchGrantBody,
  putGrantBody,
  spaceParams,
  spaceTeamParams,
  spaceUserParams,
} from './schema';

/** Content whose permissions the caller administers: 404 when they cannot see it, 403 when they see it without `admin`. */
interface Administered {
  target: GrantTarget;
  node: ContentNode;
}

async function administeredSpace(access: AccessContext, spaceId: string): Promise<Administered> {
  const space = await loadSpace(access, spaceId);
  await authorize(access, { kind: 'space', space }, 'admin');
  return { target: { kind: 'space', id: space.id, organizationId: space.organizationId }, node: spaceNode(space) };
}

async function administeredCollection(access: AccessContext, collectionId: string): Promise<Administered> {
  const collection = await loadCollection(access, collectionId);
  await authorize(access, { kind: 'collection', collection }, 'admin');
  return {
    target: { kind: 'collection', id: collection.id, organizationId: collection.organizationId },
    node: collectionNode(collection),
  };
}

/** Direct grants in the order they were given, then by principal id. */
const grantSortKeys: SortKey<ContentGrant>[] = [
  { column: 'g.createdAt', direction: 'ASC', value: (g) => g.createdAt },
  { column: 'g.principalId', direction: 'ASC', value: (g) => g.principalId },
];

const ADMIN_NEEDED = 'Needs `admin` on the content; a caller who can only see it gets 403.';

interface GrantPath<P extends ZodRawShape> {
  path: string;
  params: P;
  /** operationId suffix of our PUT and DELETE */
  name: string;
  /** GitBook's operationId of the PATCH */
  patchOperationId: string;
  /** "a user on a space" */
  what: string;
  tag: string;
  /** loads the content named in the path and requires its admin permission */
  target: (access: AccessContext, params: z.output<ZodObject<P>>) => Promise<Administered>;
  principal: (params: z.output<ZodObject<P>>) => GrantPrincipal;
}

function mountGrant<P extends ZodRawShape>(api: ApiBuilder, g: GrantPath<P>): void {
  const { ds } = api.deps;
  const principalRule =
    "A user must be a member (or guest) of the content's organization, a team one of its teams the caller may see (404 otherwise, and nothing changes).";
  api.op(
    {
      method: 'patch',
      path: g.path,
      operationId: g.patchOperationId,
      tags: [g.tag],
      extension: true,
      summary: `Give ${g.what} a role, or take back the one given there (role null)`,
      description: `Gives ${g.what} an explicit role, replacing the one given before; it raises, never lowers, the role held otherwise, on the content and on everything inside it. \`role: null\` takes back the role given there (as DELETE does); a body without \`role\` changes nothing. ${ADMIN_NEEDED} ${principalRule}`,
      params: g.params,
      body: patchGrantBody,
      responses: { 204: { description: 'updated' } },
    },
    async ({ params, body, access }) => {
      const { target } = await g.target(access, params);
      await inTransaction(ds, (db) => setGrants(access.within(db), target, [g.principal(params)], body.role));
      return { status: 204 };
    },
  );
  api.op(
    {
      method: 'put',
      path: g.path,
      operationId: `grant${g.name}Role`,
      tags: [g.tag],
      extension: true,
      summary: `Give ${g.what} a role (replaces the role it had there)`,
      description: `The same as PATCH with a role: gives ${g.what} an explicit role, replacing the one given before; it raises, never lowers, the role held otherwise, on the content and on everything inside it. ${ADMIN_NEEDED} ${principalRule}`,
      params: g.params,
      body: putGrantBody,
      responses: { 204: { description: 'granted' } },
    },
    async ({ params, body, access }) => {
      const { target } = await g.target(access, params);
      await inTransaction(ds, (db) => setGrants(access.within(db), target, [g.principal(params)], body.role));
      return { status: 204 };
    },
  );
  api.op(
    {
      method: 'delete',
      path: g.path,
      operationId: `revoke${g.name}Role`,
      tags: [g.tag],
      extension: true,
      summary: `Remove the role given to ${g.what}`,
      description: `Takes back the explicit role given to ${g.what}; the role it holds otherwise (organization role, default levels, other grants) stays. Needs \`admin\` on the content; when there was no such grant it answers 204 as well.`,
      params: g.params,
      responses: { 204: { description: 'removed, or there was no such grant' } },
    },
    async ({ params, access }) => {
      const { target } = await g.target(access, params);
      await inTransaction(ds, (db) => removeGrant(db, target, g.principal(params)));
      return { status: 204 };
    },
  );
}

interface ContentPath<P extends ZodRawShape> {
  /** `/v1/spaces/{spaceId}` */
  base: string;
  params: P;
  /** `Space` or `Collection`, as GitBook's operationIds spell it */
  kind: 'Space' | 'Collection';
  /** "space" or "collection" */
  noun: string;
  target: (access: AccessContext, params: z.output<ZodObject<P>>) => Promise<Administered>;
}

function mountContentLists<P extends ZodRawShape>(api: ApiBuilder, c: ContentPath<P>): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  const userTag = `${c.noun}-users`;
  const teamTag = `${c.noun}-teams`;

  api.op(
    {
      method: 'get',
      path: `${c.base}/permissions/users`,
      operationId: `listUserPermissionsIn${c.kind}`,
      tags: [userTag],
      extension: true,
      summary: `List the roles given to users on a ${c.noun}`,
      description: `Lists the users given an explicit role on the ${c.noun} itself, with that role, in the order they were given (not what they hold through the organization, default levels, teams or collections holding it: the aggregate lists that). ${ADMIN_NEEDED}`,
      params: c.params,
      query: listGrantsQuery,
      responses: { 200: { description: 'direct grants to users', schema: listSchema(userContentPermissionSchema) } },
    },
    async ({ params, query, access }) => {
      const { target } = await c.target(access, params);
      const page = await paginate(
        directGrantsQuery(ds.manager, target, 'user'),
        grantSortKeys,
        { limit: query.limit, page: query.page, scope: JSON.stringify(['grants', target.kind, target.id, 'user']) },
        config.cursorSecret,
      );
      const items = (await grantedUsers(ds.manager, page.items)).map((g) =>
        presentUserContentPermission(g.role, g.user, urls),
      );
      return { status: 200, body: presentList(page, items) };
    },
  );

  api.op(
    {
      method: 'get',
      path: `${c.base}/permissions/teams`,
      operationId: `listTeamPermissionsIn${c.kind}`,
      tags: [teamTag],
      extension: true,
      summary: `List the roles given to teams on a ${c.noun}`,
      description: `Lists the teams given an explicit role on the ${c.noun} itself, with that role, in the order they were given. ${ADMIN_NEEDED}`,
      params: c.params,
      query: listGrantsQuery,
      responses: { 200: { description: 'direct grants to teams', schema: listSchema(teamContentPermissionSchema) } },
    },
    async ({ params, query, access }) => {
      const { target } = await c.target(access, params);
      const page = await paginate(
        directGrantsQuery(ds.manager, target, 'team'),
        grantSortKeys,
        { limit: query.limit, page: query.page, scope: JSON.stringify(['grants', target.kind, target.id, 'team']) },
        config.cursorSecret,
      );
      const granted = await grantedTeams(ds.manager, page.items);
      const teams = await presentTeams(
        access,
        granted.map((g) => g.team),
      );
      return {
        status: 200,
        body: presentList(
          page,
          granted.map((g, i) => presentTeamContentPermission(g.role, teams[i])),
        ),
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: `${c.base}/permissions/aggregate`,
      operationId: `listPermissionsAggregateIn${c.kind}`,
      tags: [userTag],
      extension: true,
      summary: `List everyone who can access a ${c.noun}, with the role they end up with`,
      description: `Lists every member and guest of the organization who can access the ${c.noun}, with the role they end up with: the one every request of theirs is authorized with (organization role, default levels inherited through the collections holding it, grants to them or their teams on it or on those collections). Highest role first, then by user id; \`role\` keeps those with exactly that role. Each item's \`origin\` (an extension) says where the role comes from. ${ADMIN_NEEDED}`,
      params: c.params,
      query: aggregateQuery,
      responses: { 200: { description: 'who can access', schema: listSchema(userContentAccessSchema) } },
    },
    async ({ params, query, access }) => {
      const { target, node } = await c.target(access, params);
      const holders = await contentAccess(ds.manager, target.organizationId, node, query.role);
      const page = pageInMemory(
        holders,
        { key: accessKey, arity: 2 },
        {
          limit: query.limit,
          page: query.page,
          scope: JSON.stringify(['aggregate', target.kind, target.id, query.role ?? null]),
        },
        config.cursorSecret,
      );
      const users = await usersById(
        ds.manager,
        page.items.map((h) => h.userId),
      );
      const items = page.items.map((h) =>
        presentUserContentAccess(h, users.get(h.userId)!, target.organizationId, urls),
      );
      return { status: 200, body: presentList(page, items) };
    },
  );

  api.op(
    {
      method: 'post',
      path: `${c.base}/permissions`,
      operationId: `inviteTo${c.kind}`,
      tags: [userTag, teamTag],
      extension: true,
      summary: `Give users and teams a role on a ${c.noun}`,
      description: `Gives each of the users and teams an explicit role on the ${c.noun}, replacing the one given there before (what PATCH does for one); \`role: null\` takes it back. ${ADMIN_NEEDED} Every user must be a member (or guest) of the organization and every team one of its teams the caller may see: otherwise 404, and nobody is given anything.`,
      params: c.params,
      body: inviteBody,
      responses: { 204: { description: 'given' } },
    },
    async ({ params, body, access }) => {
      const { target } = await c.target(access, params);
      const principals: GrantPrincipal[] = [
        ...(body.users ?? []).map((id: string) => ({ kind: 'user' as const, id })),
        ...(body.teams ?? []).map((id: string) => ({ kind: 'team' as const, id })),
      ];
      await inTransaction(ds, (db) => setGrants(access.within(db), target, principals, body.role));
      return { status: 204 };
    },
  );
}

function mountSiteAggregate(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/sites/{siteId}/permissions/aggregate',
      operationId: 'listPermissionsAggregateInSite',
      tags: ['site-users'],
      extension: true,
      summary: 'List everyone who can access a site, with the role they end up with',
      description:
        "Lists every member of the organization who can access the site, with the role every request of theirs on it is authorized with: their organization role (a guest reaches no site). Highest role first, then by user id. Needs `admin` on the site (the organization's admins); other members get 403.",
      params: siteParams,
      query: listGrantsQuery,
      responses: { 200: { description: 'who can access', schema: listSchema(userSitePermissionSchema) } },
    },
    async ({ params, query, access }) => {
      const { site } = await viewableSite(access, params.organizationId, params.siteId);
      await authorize(access, { kind: 'site', site }, 'admin');
      const page = pageInMemory(
        await siteAccess(ds.manager, site.organizationId),
        { key: accessKey, arity: 2 },
        { limit: query.limit, page: query.page, scope: JSON.stringify(['aggregate', 'site', site.id]) },
        config.cursorSecret,
      );
      const users = await usersById(
        ds.manager,
        page.items.map((h) => h.userId),
      );
      const items = page.items.map((h) =>
        presentUserSitePermission(h.role, users.get(h.userId)!, site.organizationId, urls),
      );
      return { status: 200, body: presentList(page, items) };
    },
  );
}

export function grantRoutes(api: ApiBuilder): void {
  const space = (access: AccessContext, p: { spaceId: string }) => administeredSpace(access, p.spaceId);
  const collection = (access: AccessContext, p: { collectionId: string }) =>
    administeredCollection(access, p.collectionId);
  mountContentLists(api, {
    base: '/v1/spaces/{spaceId}',
    params: spaceParams,
    kind: 'Space',
    noun: 'space',
    target: space,
  });
  mountContentLists(api, {
    base: '/v1/collections/{collectionId}',
    params: collectionParams,
    kind: 'Collection',
    noun: 'collection',
    target: collection,
  });
  mountSiteAggregate(api);
  mountGrant(api, {
    path: '/v1/spaces/{spaceId}/permissions/users/{userId}',
    params: spaceUserParams,
    name: 'SpaceUser',
    patchOperationId: 'updateUserPermissionInSpace',
    what: 'a user on a space',
    tag: 'space-users',
    target: space,
    principal: (p) => ({ kind: 'user', id: p.userId }),
  });
  mountGrant(api, {
    path: '/v1/spaces/{spaceId}/permissions/teams/{teamId}',
    params: spaceTeamParams,
    name: 'SpaceTeam',
    patchOperationId: 'updateTeamPermissionInSpace',
    what: 'a team on a space',
    tag: 'space-teams',
    target: space,
    principal: (p) => ({ kind: 'team', id: p.teamId }),
  });
  mountGrant(api, {
    path: '/v1/collections/{collectionId}/permissions/users/{userId}',
    params: collectionUserParams,
    name: 'CollectionUser',
    patchOperationId: 'updateUserPermissionInCollection',
    what: 'a user on a collection',
    tag: 'collection-users',
    target: collection,
    principal: (p) => ({ kind: 'user', id: p.userId }),
  });
  mountGrant(api, {
    path: '/v1/collections/{collectionId}/permissions/teams/{teamId}',
    params: collectionTeamParams,
    name: 'CollectionTeam',
    patchOperationId: 'updateTeamPermissionInCollection',
    what: 'a team on a collection',
    tag: 'collection-teams',
    target: collection,
    principal: (p) => ({ kind: 'team', id: p.teamId }),
  });
}
