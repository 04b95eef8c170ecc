/**
 * Invite links (GitBook's organization invites): listed, made, read, changed and deleted by those who may manage
 * invites on their target, and joined with by anyone holding one. The rules are domain/invites/link-invites.ts.
 */
import { authorize, permissionsOf } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { badRequest, notFound } from '../../../domain/errors';
import {
  createLinkInvite,
  deleteLinkInvite,
  findLinkInvite,
  isRedundant,
  joinWithLinkInvite,
  type LinkTarget,
  linkManagement,
  loadLinkTarget,
  organizationLinkInvitesQuery,
  updateLinkInvite,
} from '../../../domain/invites/link-invites';
import { spaceCounters } from '../../../domain/spaces/counters';
import type { LinkInvite } from '../../../entities/LinkInvite';
import type { Organization } from '../../../entities/Organization';
import { inTransaction } from '../../../platform/db/transactions';
import { loadCollection, loadOrganization, loadSpace } from '../../loaders';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import {
  inviteLinkToOrganizationSchema,
  organizationInviteLinkSchema,
  type PresentedTarget,
  presentLinkInvite,
} from '../../presenters/link-invite';
import { Urls } from '../../presenters/urls';
import {
  createLinkInviteBody,
  joinOrganizationResponse,
  linkInviteParams,
  listLinkInvitesQuery,
  organizationIdParams,
  updateLinkInviteBody,
} from './schema';

const MANAGERS =
  "Needs `admin` on the organization for a link to it, `admin` on the space or collection for a link to one (GitBook's `viewInviteLinks`): the link's id is its secret.";

/** The caller may manage invites on the target: 404 when they cannot see it, 403 when they see it without. */
async function authorizeManagement(access: AccessContext, target: LinkTarget): Promise<void> {
  const { target: judged, action } = linkManagement(target);
  await authorize(access, judged, action as never, 'invite');
}

/** The organization's link, with its target, that the caller may manage; 404 for an unknown one. */
async function managedLink(
  access: AccessContext,
  organization: Organization,
  inviteId: string,
): Promise<{ invite: LinkInvite; target: LinkTarget }> {
  await authorize(access, { kind: 'organization', organization }, 'view');
  const invite = await findLinkInvite(access.db, organization.id, inviteId);
  const target = invite && (await loadLinkTarget(access.db, organization, invite));
  if (!invite || !target) throw notFound('invite');
  await authorizeManagement(access, target);
  return { invite, target };
}

async function presentedTarget(access: AccessContext, target: LinkTarget): Promise<PresentedTarget> {
  if (target.kind === 'space') {
    const { space } = target;
    const permissions = await permissionsOf(access, { kind: 'space', space });
    return { kind: 'space', space, permissions, counters: (await spaceCounters(access.db, [space])).get(space.id)! };
  }
  if (target.kind === 'collection') {
    const { collection } = target;
    return { kind: 'collection', collection, permissions: await permissionsOf(access, target) };
  }
  return { kind: 'organization' };
}

export function linkInviteRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  const present = async (access: AccessContext, invite: LinkInvite, target: LinkTarget) =>
    presentLinkInvite(invite, await presentedTarget(access, target), await isRedundant(access, invite, target), urls);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/link-invites',
      operationId: 'listOrganizationInviteLinks',
      extension: true,
      description:
        "Lists the organization's invite links to itself, newest first, disabled and expired ones included (a link to a space or a collection is read by its id). Needs `admin` on the organization: each link's id is its secret.",
      tags: ['members'],
      summary: 'List the invite links to an organization',
      params: organizationIdParams,
      query: listLinkInvitesQuery,
      responses: { 200: { description: 'invite links', schema: listSchema(inviteLinkToOrganizationSchema) } },
    },
    async ({ params, query, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'admin');
      const page = await paginate(
        organizationLinkInvitesQuery(ds.manager, organization.id),
        [
          { column: 'i.createdAt', direction: 'DESC', value: (i: LinkInvite) => i.createdAt },
          { column: 'i.id', direction: 'DESC', value: (i: LinkInvite) => i.id },
        ],
        { limit: query.limit, page: query.page, scope: JSON.stringify(['link-invites', organization.id]) },
        config.cursorSecret,
      );
      const target = { kind: 'organization' as const, organization };
      const items = [];
      for (const invite of page.items) items.push(await present(access, invite, target));
      return { status: 200, body: presentList(page, items) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/link-invites',
      operationId: 'createOrganizationInvite',
      extension: true,
      description: `Makes an invite link: to the organization with a \`role\` (null: people join as guests), or to a \`space\` or a \`collection\` of it with a \`level\` (people join as guests with that level on it). Extensions: \`expiresAt\` and \`disabled\`. The link works only while its creator may still manage invites there, so it never grants more than they hold. ${MANAGERS}`,
      tags: ['members'],
      summary: 'Make an invite link to an organization, a space or a collection',
      params: organizationIdParams,
      body: createLinkInviteBody,
      responses: { 201: { description: 'the link', schema: organizationInviteLinkSchema } },
    },
    async ({ params, body, caller, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'view');
      let target: LinkTarget = { kind: 'organization', organization };
      if (body.space !== undefined) {
        const space = await loadSpace(access, body.space);
        if (space.organizationId !== organization.id) throw notFound('space');
        target = { kind: 'space', space };
      } else if (body.collection !== undefined) {
        const collection = await loadCollection(access, body.collection);
        if (collection.organizationId !== organization.id) throw notFound('collection');
        target = { kind: 'collection', collection };
      }
      await authorizeManagement(access, target);
      const invite = await inTransaction(ds, (db) =>
        createLinkInvite(db, organization.id, caller.userId, target, {
          role: body.level ?? body.role ?? null,
          expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
          disabled: body.disabled ?? false,
        }),
      );
      return {
        status: 201,
        body: await present(access, invite, target),
        headers: { Location: urls.api(`/orgs/${organization.id}/link-invites/${invite.id}`) },
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
      operationId: 'getOrganizationInviteLink',
      extension: true,
      description: `Returns one invite link, disabled or expired included. ${MANAGERS} An unknown link, or one whose space or collection is gone, is a 404.`,
      tags: ['members'],
      summary: 'Get an invite link',
      params: linkInviteParams,
      responses: { 200: { description: 'the link', schema: organizationInviteLinkSchema } },
    },
    async ({ params, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      const { invite, target } = await managedLink(access, organization, params.inviteId);
      return { status: 200, body: await present(access, invite, target) };
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
      operationId: 'updateOrganizationInviteById',
      extension: true,
      description: `Changes what an invite link gives: \`role\` for a link to the organization, \`level\` for one to a space or a collection; and (extensions) its \`expiresAt\` and \`disabled\`. People who joined before keep what they hold. ${MANAGERS}`,
      tags: ['members'],
      summary: 'Change an invite link',
      params: linkInviteParams,
      body: updateLinkInviteBody,
      responses: { 200: { description: 'the link', schema: organizationInviteLinkSchema } },
    },
    async ({ params, body, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      const { invite, target } = await managedLink(access, organization, params.inviteId);
      const role = target.kind === 'organization' ? body.role : body.level;
      const wrong = target.kind === 'organization' ? body.level : body.role;
      if (wrong !== undefined)
        throw badRequest(
          target.kind === 'organization'
            ? 'level: a link to the organization takes a role'
            : `role: a link to a ${target.kind} takes a level`,
        );
      const updated = await inTransaction(ds, (db) =>
        updateLinkInvite(db, invite, {
          ...(role !== undefined ? { role } : {}),
          ...(body.expiresAt !== undefined ? { expiresAt: body.expiresAt ? new Date(body.expiresAt) : null } : {}),
          ...(body.disabled !== undefined ? { disabled: body.disabled } : {}),
        }),
      );
      return { status: 200, body: await present(access, updated, target) };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/orgs/{organizationId}/link-invites/{inviteId}',
      operationId: 'deleteLinkInvite',
      description: `Deletes an invite link, so it no longer lets anyone join. ${MANAGERS} A link whose space or collection is gone is the organization admins' to delete; an unknown link also answers 204.`,
      tags: ['members'],
      summary: 'Delete an invite link',
      params: linkInviteParams,
      responses: { 204: { description: 'deleted, or there was no such invite' } },
    },
    async ({ params, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      const invite = await findLinkInvite(ds.manager, organization.id, params.inviteId);
      const target = invite && (await loadLinkTarget(ds.manager, organization, invite));
      await authorizeManagement(access, target ?? { kind: 'organization', organization });
      await inTransaction(ds, (db) => deleteLinkInvite(db, organization.id, params.inviteId));
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/invites/{inviteId}',
      operationId: 'joinOrganizationWithInvite',
      extension: true,
      userOnly: true,
      description:
        "The caller joins with an invite link: a newcomer becomes a member with the link's role, or, with a link to a space or a collection, a guest with the link's level on it. Someone already holding as much or more keeps what they hold (joining again changes nothing); a disabled member gets a 403. A disabled, expired or unknown link, one of an organization whose invite links are off, or one whose creator may no longer manage invites there, is the same 404.",
      tags: ['members'],
      summary: 'Join an organization with an invite link',
      params: linkInviteParams,
      responses: { 200: { description: 'joined', schema: joinOrganizationResponse } },
    },
    async ({ params, caller, access }) => {
      const organization = await loadOrganization(access, params.organizationId, 'invite');
      await inTransaction(ds, (db) => joinWithLinkInvite(db, organization, caller.userId, params.inviteId));
      return { status: 200, body: {} };
    },
  );
}
