/**
 * Explicit roles on spaces and collections for users and teams (extensions: the spec reads access
 * through `permissions` but shows no way to grant it). Only admins of the content manage them.
 */
import type { ZodObject, ZodRawShape, z } from 'zod';
import { authorize } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { GrantPrincipal, GrantTarget, removeGrant, setGrant } from '../../../domain/grants/grants';
import { inTransaction } from '../../../platform/db/transactions';
import { loadCollection, loadSpace } from '../../loaders';
import type { ApiBuilder } from '../../operation';
import { collectionTeamParams, collectionUserParams, putGrantBody, spaceTeamParams, spaceUserParams } from './schema';

async function administeredSpace(access: AccessContext, spaceId: string): Promise<GrantTarget> {
  const space = await loadSpace(access, spaceId);
  await authorize(access, { kind: 'space', space }, 'admin');
  return { kind: 'space', id: space.id, organizationId: space.organizationId };
}

async function administeredCollection(access: AccessContext, collectionId: string): Promise<GrantTarget> {
  const collection = await loadCollection(access, collectionId);
  await authorize(access, { kind: 'collection', collection }, 'admin');
  return { kind: 'collection', id: collection.id, organizationId: collection.organizationId };
}

interface GrantPath<P extends ZodRawShape> {
  path: string;
  params: P;
  /** operationId suffix */
  name: string;
  /** "a user on a space" */
  what: string;
  /** loads the content named in the path and requires its admin permission */
  target: (access: AccessContext, params: z.output<ZodObject<P>>) => Promise<GrantTarget>;
  principal: (params: z.output<ZodObject<P>>) => GrantPrincipal;
}

function mountGrant<P extends ZodRawShape>(api: ApiBuilder, g: GrantPath<P>): void {
  const { ds } = api.deps;
  api.op(
    {
      method: 'put',
      path: g.path,
      operationId: `grant${g.name}Role`,
      tags: ['permissions'],
      extension: true,
      summary: `Give ${g.what} a role (replaces the role it had there)`,
      description: `Gives ${g.what} an explicit role, replacing the one given before; it raises, never lowers, the role held otherwise, on the content and on everything inside it. Needs \`admin\` on the content. A user must be a member (or guest) of the content's organization, and a team one of its teams (400 otherwise).`,
      params: g.params,
      body: putGrantBody,
      responses: { 204: { description: 'granted' } },
    },
    async ({ params, body, access }) => {
      const target = await g.target(access, params);
      await inTransaction(ds, (db) => setGrant(db, target, g.principal(params), body.role));
      return { status: 204 };
    },
  );
  api.op(
    {
      method: 'delete',
      path: g.path,
      operationId: `revoke${g.name}Role`,
      tags: ['permissions'],
      extension: true,
      summary: `Remove the role given to ${g.what}`,
      description: `Takes back the explicit role given to ${g.what}; the role it holds otherwise (organization role, default levels, other grants) stays. Needs \`admin\` on the content; when there was no such grant it answers 204 as well.`,
      params: g.params,
      responses: { 204: { description: 'removed, or there was no such grant' } },
    },
    async ({ params, access }) => {
      const target = await g.target(access, params);
      await inTransaction(ds, (db) => removeGrant(db, target, g.principal(params)));
      return { status: 204 };
    },
  );
}

export function grantRoutes(api: ApiBuilder): void {
  mountGrant(api, {
    path: '/v1/spaces/{spaceId}/permissions/users/{userId}',
    params: spaceUserParams,
    name: 'SpaceUser',
    what: 'a user on a space',
    target: (access, p) => administeredSpace(access, p.spaceId),
    principal: (p) => ({ kind: 'user', id: p.userId }),
  });
  mountGrant(api, {
    path: '/v1/spaces/{spaceId}/permissions/teams/{teamId}',
    params: spaceTeamParams,
    name: 'SpaceTeam',
    what: 'a team on a space',
    target: (access, p) => administeredSpace(access, p.spaceId),
    principal: (p) => ({ kind: 'team', id: p.teamId }),
  });
  mountGrant(api, {
    path: '/v1/collections/{collectionId}/permissions/users/{userId}',
    params: collectionUserParams,
    name: 'CollectionUser',
    what: 'a user on a collection',
    target: (access, p) => administeredCollection(access, p.collectionId),
    principal: (p) => ({ kind: 'user', id: p.userId }),
  });
  mountGrant(api, {
    path: '/v1/collections/{collectionId}/permissions/teams/{teamId}',
    params: collectionTeamParams,
    name: 'CollectionTeam',
    what: 'a team on a collection',
    target: (access, p) => administeredCollection(access, p.collectionId),
    principal: (p) => ({ kind: 'team', id: p.teamId }),
  });
}
