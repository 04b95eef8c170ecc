/** Each test builds its own organization through the domain, so tests never share state. */
import { randomBytes } from 'crypto';
import type { DataSource } from 'typeorm';
import type { Role } from '../domain/access/roles';
import { issueToken } from '../domain/auth/tokens';
import { addOrUpdateMember } from '../domain/organizations/membership';
import { createOrganization } from '../domain/organizations/organizations';
import { ensureUser } from '../domain/users/users';
import type { Organization } from '../entities/Organization';
import type { User } from '../entities/User';
import { inTransaction } from '../platform/db/transactions';

export const unique = (prefix = 't'): string => `${prefix}${randomBytes(5).toString('hex')}`;

export interface Actor {
  user: User;
  token: string;
}

export async function createUser(ds: DataSource, name = unique('user')): Promise<Actor> {
  return inTransaction(ds, async (db) => {
    const user = await ensureUser(db, `${name}@example.test`, name);
    const { secret } = await issueToken(db, user.id, 'test');
    return { user, token: secret };
  });
}

export interface OrgFixture {
  org: Organization;
  admin: Actor;
}

/** A fresh organization with an admin. */
export async function createOrg(ds: DataSource, title = unique('Org ')): Promise<OrgFixture> {
  const admin = await createUser(ds);
  const org = await inTransaction(ds, (db) => createOrganization(db, { title }, admin.user.id));
  return { org, admin };
}

/** A new user who is a member of the organization with `role` (null: guest). */
export async function addMember(ds: DataSource, org: Organization, role: Role | null, name?: string): Promise<Actor> {
  const actor = await createUser(ds, name);
  await addOrUpdateMember(ds.manager, org.id, actor.user.id, role);
  return actor;
}
