/**
 * Everyone who holds a role on a space, a collection or a site, with that role and where it comes from: the rule of
 * roles-of.ts applied to every enabled member of the organization, so a list of who can access and the answer to
 * each of their requests never disagree. Its facts are read once for all members (the membership rows, the chain
 * of collections, the grants on it and the teams they name), not once per member.
 */
import { Collection } from '../../entities/Collection';
import { ContentGrant, type GrantTargetKind } from '../../entities/ContentGrant';
import { Member } from '../../entities/Member';
import { TeamMember } from '../../entities/TeamMember';
import type { Db } from '../../platform/db/transactions';
import { readCollectionChain } from './context';
import type { Role } from './roles';
import { type ContentNode, type HeldRole, heldContentRole, heldSiteRole } from './roles-of';

export interface RoleHolder {
  userId: string;
  role: Role;
  /** a grant's origin names the grant itself: to the user, or to which of their teams */
  origin: HeldRole<ContentGrant>['origin'];
}

/** The members whose membership counts: a disabled member has no access. */
async function enabledMembers(db: Db, organizationId: string): Promise<Member[]> {
  return db.findBy(Member, { organizationId, disabled: false });
}

/** Every enabled member of the organization holding a role on the content, in no particular order. */
export async function contentRoleHolders(db: Db, organizationId: string, own: ContentNode): Promise<RoleHolder[]> {
  const chain: Collection[] = own.parentId ? await readCollectionChain(db, organizationId, own.parentId) : [];
  const targets = [own.id, ...chain.map((c) => c.id)];
  const grants = await db
    .createQueryBuilder(ContentGrant, 'g')
    .where('g.organizationId = :organizationId', { organizationId })
    .andWhere('g.targetId IN (:...ids)', { ids: targets })
    .getMany();
  const teamIds = [...new Set(grants.filter((g) => g.principalKind === 'team').map((g) => g.principalId))];
  const teamsOf = new Map<string, Set<string>>();
  if (teamIds.length)
    for (const tm of await db
      .createQueryBuilder(TeamMember, 'tm')
      .where('tm.teamId IN (:...teamIds)', { teamIds })
      .getMany())
      teamsOf.set(tm.userId, (teamsOf.get(tm.userId) ?? new Set()).add(tm.teamId));

  const holders: RoleHolder[] = [];
  for (const member of await enabledMembers(db, organizationId)) {
    const teams = teamsOf.get(member.userId);
    const reaches = (g: ContentGrant) =>
      g.principalKind === 'user' ? g.principalId === member.userId : (teams?.has(g.principalId) ?? false);
    const held = await heldContentRole(member, own, {
      chain: async () => chain,
      grantsOn: async (kind: GrantTargetKind, id: string) =>
        grants.filter((g) => g.targetKind === kind && g.targetId === id && reaches(g)),
    });
    if (held) holders.push({ userId: member.userId, ...held });
  }
  return holders;
}

/** Every enabled member of the organization holding a role on its sites (all of them alike), in no particular order. */
export async function siteRoleHolders(db: Db, organizationId: string): Promise<Array<{ userId: string; role: Role }>> {
  const holders: Array<{ userId: string; role: Role }> = [];
  for (const member of await enabledMembers(db, organizationId)) {
    const role = heldSiteRole(member);
    if (role) holders.push({ userId: member.userId, role });
  }
  return holders;
}
