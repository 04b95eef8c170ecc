/** API tokens: random secrets shown once, stored as SHA-256, revocable, optionally expiring. */
import { createHash, randomBytes } from 'crypto';
import { IsNull, MoreThan } from 'typeorm';
import { ApiToken } from '../../entities/ApiToken';
import { Member } from '../../entities/Member';
import { User } from '../../entities/User';
import { columnsOf, hydrate, queryPrepared } from '../../platform/db/rows';
import type { Db } from '../../platform/db/transactions';
import { grantsOfColumn, grantsOfUserColumn, KnownAccess } from '../access/context';
import { loadIntegrationPrincipal } from '../access/integration-principal';
import { conflict } from '../errors';
import { newId } from '../ids';

const PREFIX = 'dpt_';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** `integration`: an integration's token, which acts only as its scopes allow (domain/integrations/tokens.ts). */
export async function issueToken(
  db: Db,
  userId: string,
  label: string,
  expiresAt: Date | null = null,
  integration: Pick<ApiToken, 'integrationId' | 'installationId'> = { integrationId: null, installationId: null },
): Promise<{ token: ApiToken; secret: string }> {
  const secret = PREFIX + randomBytes(32).toString('base64url');
  const token = db.create(ApiToken, {
    id: newId(),
    userId,
    secretHash: hashSecret(secret),
    label,
    createdAt: new Date(),
    expiresAt,
    revokedAt: null,
    ...integration,
  });
  await db.insert(ApiToken, token);
  return { token, secret };
}

/**
 * A token a user asks for for themselves (`POST /v1/user/tokens`): at most `maxLive` live ones at once,
 * or tokens could be minted without end. The user's row is locked first, so concurrent requests cannot
 * both take the last place.
 */
export async function issueUserToken(
  db: Db,
  userId: string,
  label: string,
  expiresAt: Date | null,
  maxLive: number,
): Promise<{ token: ApiToken; secret: string }> {
  await db.findOne(User, { where: { id: userId }, lock: { mode: 'pessimistic_write' } });
  const live = { userId, revokedAt: IsNull() };
  const count = await db.count(ApiToken, {
    where: [
      { ...live, expiresAt: IsNull() },
      { ...live, expiresAt: MoreThan(new Date()) },
    ],
  });
  if (count >= maxLive) throw conflict(`tokens: a user holds at most ${maxLive} live API tokens; revoke one first`);
  return issueToken(db, userId, label, expiresAt);
}

/** The token, and what every authorized request needs to know of its user, read in the same statement. */
export interface LiveToken extends KnownAccess {
  token: ApiToken;
}

/**
 * The live token for a presented secret, or null when unknown, revoked or expired. The API reads it
 * through LiveTokenCache (live-token-cache.ts), which bounds how long a revocation takes to apply.
 */
export async function findLiveToken(db: Db, secret: string): Promise<LiveToken | null> {
  if (!secret.startsWith(PREFIX) || secret.length > 200) return null;
  const rows = await queryPrepared(
    db,
    `SELECT ${columnsOf(db, ApiToken, 't')}, ${columnsOf(db, Member, 'm')}, ${grantsOfUserColumn('t.userId')} AS grants
       FROM api_tokens t LEFT JOIN members m ON m.userId = t.userId WHERE t.secretHash = ? AND t.revokedAt IS NULL`,
    [hashSecret(secret)],
  );
  if (!rows.length) return null;
  const token = hydrate(db, ApiToken, 't', rows[0]);
  if (token.expiresAt && token.expiresAt.getTime() <= Date.now()) return null;
  // an integration's token (only those cost a second statement): dead once its integration or installation is gone
  const integration = token.integrationId ? await loadIntegrationPrincipal(db, token) : null;
  if (token.integrationId && !integration) return null;
  return {
    token,
    memberships: rows.filter((r) => r.m_organizationId !== null).map((r) => hydrate(db, Member, 'm', r)),
    grants: grantsOfColumn(rows[0].grants),
    integration,
  };
}

/** Revokes by secret; true when a live token was revoked. */
export async function revokeBySecret(db: Db, secret: string): Promise<boolean> {
  const result = await db.update(
    ApiToken,
    { secretHash: hashSecret(secret), revokedAt: IsNull() },
    { revokedAt: new Date() },
  );
  return (result.affected ?? 0) > 0;
}

export async function revokeById(db: Db, userId: string, tokenId: string): Promise<boolean> {
  const result = await db.update(ApiToken, { id: tokenId, userId, revokedAt: IsNull() }, { revokedAt: new Date() });
  return (result.affected ?? 0) > 0;
}
