/**
 * Invite links (GitBook's organization invites): a link into the organization with a role, or into one space or
 * collection with a level. The link's id is its secret: whoever holds it joins by it, so only those who may manage
 * the link's target see it (the organization's admins; a space's or collection's admins for a link to it). A link
 * lets people join while it is enabled, unexpired, its organization has invite links on, its target exists and its
 * creator may still manage invites there, so it never grants more than someone who could grant it holds; otherwise
 * it is the same 404 as an unknown one. Joining never lowers what the person holds.
 */
import { Collection } from '../../entities/Collection';
import { LinkInvite, type LinkInviteTargetKind } from '../../entities/LinkInvite';
import { Member } from '../../entities/Member';
import type { Organization } from '../../entities/Organization';
import { Space } from '../../entities/Space';
import { type Db, insertKeepingValues } from '../../platform/db/transactions';
import { permissionsOf, type Target } from '../access/authorize';
import { AccessContext } from '../access/context';
import { type Role, roleRank } from '../access/roles';
import { collectionRole, spaceRole } from '../access/roles-of';
import { forbidden, notFound } from '../errors';
import { setGrants } from '../grants/grants';
import { newId } from '../ids';
import { addOrUpdateMember } from '../organizations/membership';

/** What a link lets its holder join, loaded. */
export type LinkTarget =
  | { kind: 'organization'; organization: Organization }
  | { kind: 'space'; space: Space }
  | { kind: 'collection'; collection: Collection };

/** The access a link's management needs: `admin` on the organization, `viewInviteLinks` on the content. */
export function linkManagement(target: LinkTarget): { target: Target; action: 'admin' | 'viewInviteLinks' } {
  return target.kind === 'organization'
    ? { target: { kind: 'organization', organization: target.organization }, action: 'admin' }
    : { target, action: 'viewInviteLinks' };
}

async function mayManage(ctx: AccessContext, target: LinkTarget): Promise<boolean> {
  const { target: judged, action } = linkManagement(target);
  return ((await permissionsOf(ctx, judged)) as unknown as Record<string, boolean>)[action] === true;
}

/** The link's target as it is now; null when its space was deleted or its collection is gone. */
export async function loadLinkTarget(
  db: Db,
  organization: Organization,
  invite: LinkInvite,
): Promise<LinkTarget | null> {
  if (invite.targetKind === 'organization') return { kind: 'organization', organization };
  const where = { id: invite.targetId!, organizationId: organization.id };
  if (invite.targetKind === 'space') {
    const space = await db.findOneBy(Space, where);
    return space && !space.deletedAt ? { kind: 'space', space } : null;
  }
  const collection = await db.findOneBy(Collection, where);
  return collection ? { kind: 'collection', collection } : null;
}

/** The kind and id a link to `target` is stored with. */
function targetRef(target: LinkTarget): { targetKind: LinkInviteTargetKind; targetId: string | null } {
  if (target.kind === 'space') return { targetKind: 'space', targetId: target.space.id };
  if (target.kind === 'collection') return { targetKind: 'collection', targetId: target.collection.id };
  return { targetKind: 'organization', targetId: null };
}

/** The settings of a link beyond its target: GitBook's role or level, and our extensions. */
export interface LinkInviteSettings {
  role: Role | null;
  expiresAt: Date | null;
  disabled: boolean;
}

/** A new link, made by `creatorId` (who may manage invites on `target`: the route authorized them). */
export async function createLinkInvite(
  db: Db,
  organizationId: string,
  creatorId: string,
  target: LinkTarget,
  settings: LinkInviteSettings,
): Promise<LinkInvite> {
  const invite = db.create(LinkInvite, {
    id: newId(),
    organizationId,
    ...targetRef(target),
    ...settings,
    createdBy: creatorId,
    createdAt: new Date(),
  });
  await insertKeepingValues(db, LinkInvite, invite);
  return invite;
}

export async function updateLinkInvite(
  db: Db,
  invite: LinkInvite,
  changes: Partial<LinkInviteSettings>,
): Promise<LinkInvite> {
  await db.update(LinkInvite, { id: invite.id }, changes);
  return Object.assign(invite, changes);
}

/** The organization's link, enabled or not; null when it has none by that id. */
export async function findLinkInvite(db: Db, organizationId: string, inviteId: string): Promise<LinkInvite | null> {
  return db.findOneBy(LinkInvite, { id: inviteId, organizationId });
}

/** The organization's links to itself (alias `i`): GitBook lists these; a link to content is read by its id. */
export function organizationLinkInvitesQuery(db: Db, organizationId: string) {
  return db
    .createQueryBuilder(LinkInvite, 'i')
    .where('i.organizationId = :organizationId AND i.targetKind = :kind', { organizationId, kind: 'organization' });
}

/** Deletes the invite if it belongs to the organization; an unknown invite is a no-op. */
export async function deleteLinkInvite(db: Db, organizationId: string, inviteId: string): Promise<void> {
  await db.delete(LinkInvite, { id: inviteId, organizationId });
}

/** GitBook's `redundant`: the caller already holds what the link gives. */
export async function isRedundant(ctx: AccessContext, invite: LinkInvite, target: LinkTarget): Promise<boolean> {
  if (target.kind === 'organization') {
    const member = await ctx.membership(target.organization.id);
    return member !== null && roleRank(member.role) >= roleRank(invite.role);
  }
  const held =
    target.kind === 'space' ? await spaceRole(ctx, target.space) : await collectionRole(ctx, target.collection);
  return roleRank(held) >= roleRank(invite.role);
}

/** The link and its target when it lets people join now; a link that does not is the same 404 as an unknown one. */
async function usableLinkInvite(
  db: Db,
  organization: Organization,
  inviteId: string,
  now: Date,
): Promise<{ invite: LinkInvite; target: LinkTarget }> {
  const gone = notFound('invite');
  if (!organization.inviteLinks) throw gone;
  const invite = await db.findOne(LinkInvite, {
    where: { id: inviteId, organizationId: organization.id },
    lock: { mode: 'pessimistic_read' },
  });
  if (!invite || invite.disabled || (invite.expiresAt && invite.expiresAt <= now) || !invite.createdBy) throw gone;
  const target = await loadLinkTarget(db, organization, invite);
  if (!target || !(await mayManage(new AccessContext(db, invite.createdBy), target))) throw gone;
  return { invite, target };
}

/**
 * The caller joins with the link: a newcomer becomes a member with the link's role (a link to content: a guest with
 * the link's level on it). Someone already there keeps what they hold when it is as much or more; joining again
 * changes nothing. A disabled member stays disabled (403): an admin disabled them, a link does not undo it.
 */
export async function joinWithLinkInvite(
  db: Db,
  organization: Organization,
  userId: string,
  inviteId: string,
  now = new Date(),
): Promise<void> {
  const { invite, target } = await usableLinkInvite(db, organization, inviteId, now);
  const member = await db.findOneBy(Member, { organizationId: organization.id, userId });
  if (member?.disabled) throw forbidden('your membership of this organization is disabled; an admin can enable it');
  if (target.kind === 'organization') {
    if (!member || roleRank(member.role) < roleRank(invite.role))
      await addOrUpdateMember(db, organization.id, userId, invite.role);
    return;
  }
  if (!member) await addOrUpdateMember(db, organization.id, userId, null);
  const joiner = new AccessContext(db, userId);
  if (await isRedundant(joiner, invite, target)) return;
  const content = target.kind === 'space' ? target.space : target.collection;
  await setGrants(
    joiner,
    { kind: target.kind, id: content.id, organizationId: organization.id },
    [{ kind: 'user', id: userId }],
    invite.role,
  );
}
