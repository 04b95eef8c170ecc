/** Whose an `Idempotency-Key` is: the caller's, in the organization the request acts in. */

import type { Db } from '../../platform/db/transactions';
import type { IntegrationPrincipal } from '../access/integration-principal';
import type { KeyOwner } from './keys';

/** The tables whose rows a path names by id, and so the organization a request on them acts in. */
const ORGANIZATION_OF: ReadonlyArray<[param: string, table: string]> = [
  ['spaceId', 'spaces'],
  ['collectionId', 'collections'],
];

/**
 * The caller is the token's user, or the installation (the integration, for its own token); the organization is
 * the one the path names, directly or through its space or collection ('' for paths in none: the caller's account,
 * an integration). An unknown id has no organization: the key then only ever replays that request's 404.
 */
export async function keyOwner(
  db: Db,
  caller: { userId: string; integration?: IntegrationPrincipal | null },
  params: Readonly<Record<string, unknown>>,
): Promise<KeyOwner> {
  const who = caller.integration
    ? caller.integration.installation
      ? `installation:${caller.integration.installation.id}`
      : `integration:${caller.integration.integrationId}`
    : `user:${caller.userId}`;
  if (typeof params.organizationId === 'string') return { caller: who, organizationId: params.organizationId };
  for (const [param, table] of ORGANIZATION_OF) {
    if (typeof params[param] !== 'string') continue;
    const [row] = await db.query(`SELECT organizationId FROM \`${table}\` WHERE id = ?`, [params[param]]);
    return { caller: who, organizationId: (row?.organizationId as string | undefined) ?? '' };
  }
  return { caller: who, organizationId: '' };
}
