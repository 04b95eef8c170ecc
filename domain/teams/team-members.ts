/** Who belongs to a team and with which team role. Only members (or guests) of the team's organization can join. */
import { In, SelectQueryBuilder } from 'typeorm';
import { Member } from '../../entities/Member';
import type { Team } from '../../entities/Team';
import { TeamMember, TeamRole } from '../../entities/TeamMember';
import { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import { badRequest } from '../errors';
import { normalizeEmail } from '../users/users';

/**
 * Maps each entry (a user id, or an e-mail when it contains "@") to the id of a user who is a member
 * of the organization; 400 naming `field` and the first entry that is not.
 */
export async function resolveOrganizationMembers(
  db: Db,
  organizationId: string,
  entries: string[],
  field: string,
): Promise<Map<string, string>> {
  const resolved = new Map<string, string>();
  if (!entries.length) return resolved;
  const emails = entries.filter((e) => e.includes('@')).map(normalizeEmail);
  const ids = entries.filter((e) => !e.includes('@'));
  const qb = db
    .createQueryBuilder(User, 'u')
    .innerJoin(Member, 'm', 'm.userId = u.id AND m.organizationId = :organizationId', { organizationId })
    .select(['u.id', 'u.email']);
  if (ids.length && emails.length) qb.where('(u.id IN (:...ids) OR u.email IN (:...emails))', { ids, emails });
  else if (ids.length) qb.where('u.id IN (:...ids)', { ids });
  else qb.where('u.email IN (:...emails)', { emails });
  const users = await qb.getMany();
  const byId = new Map(users.map((u) => [u.id, u.id]));
  const byEmail = new Map(users.map((u) => [u.email, u.id]));
  for (const entry of entries) {
    const userId = entry.includes('@') ? byEmail.get(normalizeEmail(entry)) : byId.get(entry);
    if (!userId) throw badRequest(`${field}: "${entry}" is not a member of this organization`);
    resolved.set(entry, userId);
  }
  return resolved;
}

/** Memberships of the team (alias `tm`) whose users are still members of the organization (alias `m`). */
export function teamMembersQuery(db: Db, team: Team): SelectQueryBuilder<TeamMember> {
  return db
    .createQueryBuilder(TeamMember, 'tm')
    .innerJoin(Member, 'm', 'm.userId = tm.userId AND m.organizationId = :organizationId', {
      organizationId: team.organizationId,
    })
    .where('tm.teamId = :teamId', { teamId: team.id });
}

/** The user's role in each of `teamIds` they belong to. */
export async function teamRolesOf(db: Db, userId: string, teamIds: string[]): Promise<Map<string, TeamRole>> {
  const rows = teamIds.length ? await db.findBy(TeamMember, { userId, teamId: In(teamIds) }) : [];
  return new Map(rows.map((r) => [r.teamId, r.role]));
}

/** Adds users, keeping the role of those already in the team (safe against concurrent adds). */
async function addMissing(db: Db, teamId: string, userIds: string[]): Promise<void> {
  if (!userIds.length) return;
  const addedAt = new Date();
  await db
    .createQueryBuilder()
    .insert()
    .into(TeamMember)
    .values(userIds.map((userId) => ({ teamId, userId, role: 'member' as TeamRole, addedAt })))
    .orIgnore()
    .execute();
}

/** Adds users with the given roles, or sets the role of those already in the team. */
async function upsertRoles(db: Db, teamId: string, roles: Map<string, TeamRole>): Promise<void> {
  if (!roles.size) return;
  const addedAt = new Date();
  await db
    .createQueryBuilder()
    .insert()
    .into(TeamMember)
    .values([...roles].map(([userId, role]) => ({ teamId, userId, role, addedAt })))
    .orUpdate(['role'], ['teamId', 'userId'])
    .execute();
}

export interface TeamMembersChange {
  add?: string[];
  remove?: string[];
  /** user id or e-mail -> team role; adds the user when not yet in the team */
  memberships?: Record<string, { role: TeamRole }>;
}

/** Applies additions, removals and role changes in one go; a user both added and removed is removed. */
export async function changeTeamMembers(db: Db, team: Team, change: TeamMembersChange): Promise<void> {
  const memberships = Object.entries(change.memberships ?? {});
  const add = await resolveOrganizationMembers(db, team.organizationId, change.add ?? [], 'add');
  const remove = await resolveOrganizationMembers(db, team.organizationId, change.remove ?? [], 'remove');
  const withRole = await resolveOrganizationMembers(
    db,
    team.organizationId,
    memberships.map(([entry]) => entry),
    'memberships',
  );
  const removed = new Set(remove.values());

  const roles = new Map<string, TeamRole>();
  for (const [entry, { role }] of memberships) {
    const userId = withRole.get(entry)!;
    if (!removed.has(userId)) roles.set(userId, role);
  }
  await upsertRoles(db, team.id, roles);
  await addMissing(
    db,
    team.id,
    [...new Set(add.values())].filter((id) => !removed.has(id) && !roles.has(id)),
  );
  if (removed.size) await db.delete(TeamMember, { teamId: team.id, userId: In([...removed]) });
}

/** Makes the team's members exactly `entries` (ids or e-mails); those who stay keep their role. */
export async function replaceTeamMembers(db: Db, team: Team, entries: string[]): Promise<void> {
  const wanted = new Set((await resolveOrganizationMembers(db, team.organizationId, entries, 'members')).values());
  const current = await db.find(TeamMember, { where: { teamId: team.id }, select: { userId: true } });
  const leaving = current.map((c) => c.userId).filter((id) => !wanted.has(id));
  if (leaving.length) await db.delete(TeamMember, { teamId: team.id, userId: In(leaving) });
  await addMissing(db, team.id, [...wanted]);
}

/** Adds the user to the team with `role`, or sets their role. */
export async function putTeamMember(db: Db, team: Team, userId: string, role: TeamRole): Promise<void> {
  const resolved = await resolveOrganizationMembers(db, team.organizationId, [userId], 'userId');
  await upsertRoles(db, team.id, new Map([[resolved.get(userId)!, role]]));
}

/** Removes the user from the team; not being in it is a no-op. */
export async function removeTeamMember(db: Db, teamId: string, userId: string): Promise<void> {
  await db.delete(TeamMember, { teamId, userId });
}
