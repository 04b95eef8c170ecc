/**
 * The lists of who holds which role: the direct grants on a space or collection, with the users and teams they name,
 * and the aggregates of everyone who can access content or sites, as the access function decides it
 * (domain/access/role-holders.ts).
 */
import { In } from 'typeorm';
import type { ContentGrant } from '../../entities/ContentGrant';
import { Team } from '../../entities/Team';
import { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import { contentRoleHolders, type RoleHolder, siteRoleHolders } from '../access/role-holders';
import { ROLES, type Role, roleRank } from '../access/roles';
import type { ContentNode } from '../access/roles-of';

/** The order of an aggregate: the highest role first, then by user id. */
export type AccessKey = [number, string];
export const accessKey = (holder: { role: Role; userId: string }): AccessKey => [
  ROLES.length - roleRank(holder.role),
  holder.userId,
];
const byAccessKey = (a: { role: Role; userId: string }, b: { role: Role; userId: string }) => {
  const [ka, kb] = [accessKey(a), accessKey(b)];
  return ka[0] - kb[0] || (ka[1] < kb[1] ? -1 : ka[1] > kb[1] ? 1 : 0);
};

/** Everyone who can access the content, in the aggregate's order; `role` keeps those who end up with exactly it. */
export async function contentAccess(
  db: Db,
  organizationId: string,
  content: ContentNode,
  role?: Role,
): Promise<RoleHolder[]> {
  const holders = await contentRoleHolders(db, organizationId, content);
  return holders.filter((h) => !role || h.role === role).sort(byAccessKey);
}

/** Everyone who can access the organization's sites, in the aggregate's order. */
export async function siteAccess(db: Db, organizationId: string): Promise<Array<{ userId: string; role: Role }>> {
  return (await siteRoleHolders(db, organizationId)).sort(byAccessKey);
}

export async function usersById(db: Db, ids: string[]): Promise<Map<string, User>> {
  return new Map((ids.length ? await db.findBy(User, { id: In(ids) }) : []).map((u) => [u.id, u]));
}

/** The grants to users with the user each names (a member leaving the organization takes their grants along). */
export async function grantedUsers(db: Db, grants: ContentGrant[]): Promise<Array<{ role: Role; user: User }>> {
  const users = await usersById(
    db,
    grants.map((g) => g.principalId),
  );
  return grants.flatMap((g) => {
    const user = users.get(g.principalId);
    return user ? [{ role: g.role, user }] : [];
  });
}

/** The grants to teams with the team each names. */
export async function grantedTeams(db: Db, grants: ContentGrant[]): Promise<Array<{ role: Role; team: Team }>> {
  const ids = grants.map((g) => g.principalId);
  const teams = new Map((ids.length ? await db.findBy(Team, { id: In(ids) }) : []).map((t) => [t.id, t]));
  return grants.flatMap((g) => {
    const team = teams.get(g.principalId);
    return team ? [{ role: g.role, team }] : [];
  });
}
