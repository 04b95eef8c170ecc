/**
 * Organization membership rules: listing with filters, role changes, leaving and removal. An
 * organization always keeps at least one (enabled) admin.
 */
import { Brackets, In, SelectQueryBuilder } from 'typeorm';
import { ContentGrant } from '../../entities/ContentGrant';
import { Member } from '../../entities/Member';
import { Team } from '../../entities/Team';
import { TeamMember } from '../../entities/TeamMember';
import { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import type { Role } from '../access/roles';
import { conflict, notFound } from '../errors';
import { containsPattern } from '../like';

export type MemberSort = 'joinedAt' | 'lastSeenAt';

export interface MemberFilters {
  /** guest: members without an organization role */
  role?: Role | 'guest';
  /** case-insensitive "contains" over the user's display name and e-mail */
  search?: string;
  /** lastSeenAt lists only members that have been seen */
  sort: MemberSort;
}

/** Members of the organization matching the filters (alias `m`, users joined as `u`). */
export function membersQuery(db: Db, organizationId: string, filters: MemberFilters): SelectQueryBuilder<Member> {
  const qb = db
    .createQueryBuilder(Member, 'm')
    .innerJoin(User, 'u', 'u.id = m.userId')
    .where('m.organizationId = :organizationId', { organizationId });
  if (filters.role === 'guest') qb.andWhere('m.role IS NULL');
  else if (filters.role) qb.andWhere('m.role = :role', { role: filters.role });
  if (filters.search) {
    const pattern = containsPattern(filters.search);
    qb.andWhere(
      new Brackets((w) =>
        w.where('LOWER(u.displayName) LIKE :pattern', { pattern }).orWhere('LOWER(u.email) LIKE :pattern', { pattern }),
      ),
    );
  }
  if (filters.sort === 'lastSeenAt') qb.andWhere('m.lastSeenAt IS NOT NULL');
  return qb;
}

export async function findMember(db: Db, organizationId: string, userId: string): Promise<Member> {
  const member = await db.findOneBy(Member, { organizationId, userId });
  if (!member) throw notFound('member');
  return member;
}

/** The organization's members among `userIds` (absent ones are skipped). */
export async function membersAmong(db: Db, organizationId: string, userIds: string[]): Promise<Member[]> {
  return userIds.length ? db.findBy(Member, { organizationId, userId: In(userIds) }) : [];
}

/**
 * Refuses (409) when `userId` is the last enabled admin and is about to stop being one. The admin
 * rows are locked so two concurrent demotions cannot both pass.
 */
async function assertAnotherAdminRemains(db: Db, organizationId: string, userId: string): Promise<void> {
  const admins = await db
    .createQueryBuilder(Member, 'm')
    .setLock('pessimistic_write')
    .where('m.organizationId = :organizationId AND m.role = :admin AND m.disabled = 0', {
      organizationId,
      admin: 'admin',
    })
    .getMany();
  if (!admins.some((a) => a.userId !== userId)) throw conflict('an organization must keep at least one admin');
}

/** Sets the member's organization role (null: guest). */
export async function changeMemberRole(db: Db, member: Member, role: Role | null): Promise<Member> {
  if (member.role === 'admin' && role !== 'admin')
    await assertAnotherAdminRemains(db, member.organizationId, member.userId);
  await db.update(Member, { organizationId: member.organizationId, userId: member.userId }, { role });
  member.role = role;
  return member;
}

/** Removes the user from the organization with their teams and grants there; absent members are a no-op. */
export async function removeMember(db: Db, organizationId: string, userId: string): Promise<void> {
  const member = await db.findOneBy(Member, { organizationId, userId });
  if (!member) return;
  if (member.role === 'admin') await assertAnotherAdminRemains(db, organizationId, userId);
  const teamIds = db.createQueryBuilder(Team, 't').select('t.id').where('t.organizationId = :organizationId');
  await db
    .createQueryBuilder()
    .delete()
    .from(TeamMember)
    .where('userId = :userId', { userId })
    .andWhere(`teamId IN (${teamIds.getQuery()})`, { organizationId })
    .execute();
  await db.delete(ContentGrant, { organizationId, principalKind: 'user', principalId: userId });
  await db.delete(Member, { organizationId, userId });
}

/** Marks the member as signing in through the organization's SSO. */
export async function markSsoMember(db: Db, member: Member): Promise<Member> {
  await db.update(Member, { organizationId: member.organizationId, userId: member.userId }, { sso: true });
  member.sso = true;
  return member;
}

/** Records that the user was active in the organization just now. */
export async function touchLastSeen(db: Db, organizationId: string, userId: string): Promise<void> {
  await db.update(Member, { organizationId, userId }, { lastSeenAt: new Date() });
}
