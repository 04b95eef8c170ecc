import { Member } from '../../entities/Member';
import { type Db, insertKeepingValues } from '../../platform/db/transactions';
import type { Role } from '../access/roles';

/** Makes the user a member with `role` (null: guest), or changes the role of an existing member. */
export async function addOrUpdateMember(
  db: Db,
  organizationId: string,
  userId: string,
  role: Role | null,
): Promise<Member> {
  const existing = await db.findOneBy(Member, { organizationId, userId });
  if (existing) {
    existing.role = role;
    existing.disabled = false;
    await db.update(Member, { organizationId, userId }, { role, disabled: false });
    return existing;
  }
  const member = db.create(Member, {
    organizationId,
    userId,
    role,
    disabled: false,
    sso: false,
    joinedAt: new Date(),
    lastSeenAt: null,
  });
  await insertKeepingValues(db, Member, member);
  return member;
}
