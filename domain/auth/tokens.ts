/** API tokens: random secrets shown once, stored as SHA-256, revocable, optionally expiring. */
import { createHash, randomBytes } from 'crypto';
import { IsNull } from 'typeorm';
import type { Db } from '../db';
import { newId } from '../ids';
import { ApiToken } from '../../entities/ApiToken';

const PREFIX = 'dpt_';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export async function issueToken(db: Db, userId: string, label: string, expiresAt: Date | null = null): Promise<{ token: ApiToken; secret: string }> {
  const secret = PREFIX + randomBytes(32).toString('base64url');
  const token = db.create(ApiToken, {
    id: newId(),
    userId,
    secretHash: hashSecret(secret),
    label,
    createdAt: new Date(),
    expiresAt,
    revokedAt: null,
  });
  await db.insert(ApiToken, token);
  return { token, secret };
}

/** The live token for a presented secret, or null when unknown, revoked or expired. */
export async function findLiveToken(db: Db, secret: string): Promise<ApiToken | null> {
  if (!secret.startsWith(PREFIX) || secret.length > 200) return null;
  const token = await db.findOneBy(ApiToken, { secretHash: hashSecret(secret), revokedAt: IsNull() });
  if (!token) return null;
  if (token.expiresAt && token.expiresAt.getTime() <= Date.now()) return null;
  return token;
}

/** Revokes by secret; true when a live token was revoked. */
export async function revokeBySecret(db: Db, secret: string): Promise<boolean> {
  const result = await db.update(ApiToken, { secretHash: hashSecret(secret), revokedAt: IsNull() }, { revokedAt: new Date() });
  return (result.affected ?? 0) > 0;
}

export async function revokeById(db: Db, userId: string, tokenId: string): Promise<boolean> {
  const result = await db.update(ApiToken, { id: tokenId, userId, revokedAt: IsNull() }, { revokedAt: new Date() });
  return (result.affected ?? 0) > 0;
}
