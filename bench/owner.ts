/** The benchmarks' owner: a user with a token, an organization of their own and, when titled, a space in it. */
import type { DataSource } from 'typeorm';
import { issueToken } from '../domain/auth/tokens';
import { createOrganization } from '../domain/organizations/organizations';
import { createSpace } from '../domain/spaces/spaces';
import { ensureUser } from '../domain/users/users';
import type { Space } from '../entities/Space';
import type { User } from '../entities/User';
import { inTransaction } from '../platform/db/transactions';

export interface BenchOwner {
  user: User;
  organizationId: string;
  /** an API token of the user's */
  token: string;
}

export async function benchOwner(ds: DataSource, organization: string): Promise<BenchOwner>;
export async function benchOwner(
  ds: DataSource,
  organization: string,
  space: string,
): Promise<BenchOwner & { space: Space }>;
export async function benchOwner(
  ds: DataSource,
  organization: string,
  space?: string,
): Promise<BenchOwner & { space?: Space }> {
  return inTransaction(ds, async (db) => {
    const user = await ensureUser(db, 'bench@example.test', 'Bench');
    const org = await createOrganization(db, { title: organization }, user.id);
    return {
      user,
      organizationId: org.id,
      token: (await issueToken(db, user.id, 'bench')).secret,
      ...(space ? { space: await createSpace(db, org.id, null, { title: space }, user.id) } : {}),
    };
  });
}
