/**
 * The link of an invitation that issues the person's first API token, once. Its secret is derived from the link's id
 * with a key of the service (HMAC-SHA256), so the mail step can put it in the message without the secret being
 * stored: the row keeps only its SHA-256, as for API tokens. Redeeming it (POST) is single use and expires after
 * INVITE_TOKEN_TTL_SECONDS.
 */
import { createHmac } from 'crypto';
import { InviteToken } from '../../entities/InviteToken';
import { Member } from '../../entities/Member';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';
import { hashSecret, issueUserToken } from '../auth/tokens';
import { notFound } from '../errors';
import { newId } from '../ids';

const PREFIX = 'dpi_';

/** The derivation's key: the cursor secret under a label of its own (rotating it also ends the pending links). */
function linkSecret(config: Config, tokenId: string): string {
  const key = createHmac('sha256', config.cursorSecret).update('invite-token-key').digest();
  return PREFIX + createHmac('sha256', key).update(tokenId).digest('base64url');
}

/** Where the link points: POST to it answers the token. */
export function firstTokenUrl(config: Config, tokenId: string): string {
  return `${config.publicBaseUrl.replace(/\/+$/, '')}/v1/invite-tokens/${linkSecret(config, tokenId)}`;
}

/** Writes a new link for the user's invitation into the organization; its secret is never stored. */
export async function createFirstTokenLink(
  db: Db,
  config: Config,
  organizationId: string,
  userId: string,
  now: Date,
): Promise<InviteToken> {
  const id = newId();
  const link = db.create(InviteToken, {
    id,
    secretHash: hashSecret(linkSecret(config, id)),
    organizationId,
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + config.mail.inviteTokenTtlSeconds * 1000),
    usedAt: null,
  });
  await db.insert(InviteToken, link);
  return link;
}

/**
 * Issues the person's token for a link secret, once: an unknown, used or expired link, or one whose person has left
 * the organization, is the same 404. The link's row is locked, so two requests at once issue one token.
 */
export async function redeemFirstTokenLink(db: Db, config: Config, secret: string, now = new Date()) {
  const gone = notFound('invite link');
  if (!secret.startsWith(PREFIX) || secret.length > 100) throw gone;
  const link = await db.findOne(InviteToken, {
    where: { secretHash: hashSecret(secret) },
    lock: { mode: 'pessimistic_write' },
  });
  if (!link || link.usedAt || link.expiresAt <= now) throw gone;
  if (!(await db.existsBy(Member, { organizationId: link.organizationId, userId: link.userId, disabled: false })))
    throw gone;
  await db.update(InviteToken, { id: link.id }, { usedAt: now });
  const issued = await issueUserToken(db, link.userId, 'invitation', null, config.maxLiveTokensPerUser);
  return { ...issued, organizationId: link.organizationId };
}
