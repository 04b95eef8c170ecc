import { Member } from '../../entities/Member';
import { User } from '../../entities/User';
import type { Db } from '../../platform/db/transactions';
import { forbidden, notFound } from '../errors';
import { newId } from '../ids';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The user with this e-mail, created on first sight (display name defaults to the e-mail's local part). */
export async function ensureUser(db: Db, email: string, displayName?: string): Promise<User> {
  const normalized = normalizeEmail(email);
  const existing = await db.findOneBy(User, { email: normalized });
  if (existing) return existing;
  const user = db.create(User, {
    id: newId(),
    email: normalized,
    displayName: displayName ?? normalized.split('@')[0],
    photoURL: null,
    createdAt: new Date(),
  });
  await db.insert(User, user);
  return user;
}

/** The user, if they are the viewer or share an organization with the viewer (enabled memberships). */
export async function findVisibleUser(db: Db, viewerId: string, userId: string): Promise<User | null> {
  if (viewerId === userId) return db.findOneBy(User, { id: userId });
  return db
    .createQueryBuilder(User, 'u')
    .innerJoin(Member, 'theirs', 'theirs.userId = u.id AND theirs.disabled = 0')
    .innerJoin(
      Member,
      'mine',
      'mine.organizationId = theirs.organizationId AND mine.userId = :viewerId AND mine.disabled = 0',
      { viewerId },
    )
    .where('u.id = :userId', { userId })
    .getOne();
}

/**
 * Changes a user's own profile: only the user themself may. Someone the caller cannot see is not found (as a read
 * answers); someone they can see is forbidden.
 */
export async function updateOwnProfile(
  db: Db,
  callerId: string,
  userId: string,
  fields: { displayName?: string; photoURL?: string },
): Promise<User> {
  const user = await findVisibleUser(db, callerId, userId);
  if (!user) throw notFound('user');
  if (user.id !== callerId) throw forbidden('a user changes only their own profile');
  Object.assign(user, fields);
  await db.update(User, { id: user.id }, fields);
  return user;
}
