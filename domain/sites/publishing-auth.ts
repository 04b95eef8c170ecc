/**
 * A site's visitor token signing key (GitBook's `…/publishing/auth`, custom backend): the site's owner
 * signs visitor JWTs with it (HS256), and `GET …/published` verifies them with jose against the key of
 * the moment, so regenerating the key invalidates every token signed before at once.
 */
import { randomBytes } from 'crypto';
import { JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import type { Site } from '../../entities/Site';
import { SitePublishingAuth } from '../../entities/SitePublishingAuth';
import type { Db } from '../../platform/db/transactions';
import { badRequest } from '../errors';

/** 256 random bits, 43 URL-safe characters (HS256 wants a key at least as long as its hash). */
function newPrivateKey(): string {
  return randomBytes(32).toString('base64url');
}

/** Visitors present tokens to sites that authenticate them or adapt to them; other sites have no key to hand out. */
function assertUsesVisitorTokens(site: Site): void {
  if (site.visibility !== 'visitor-auth' && !site.adaptiveContentEnabled) {
    throw badRequest(
      'visibility: the site neither authenticates visitors (visitor-auth) nor has adaptive content enabled, so it takes no visitor tokens',
    );
  }
}

/** The site's key, made on first use (concurrent first reads agree on one). */
export async function publishingAuthOf(db: Db, site: Site): Promise<SitePublishingAuth> {
  assertUsesVisitorTokens(site);
  const now = new Date();
  await db
    .createQueryBuilder()
    .insert()
    .into(SitePublishingAuth)
    .values({ siteId: site.id, privateKey: newPrivateKey(), createdAt: now, updatedAt: now })
    .orIgnore()
    .execute();
  return db.findOneByOrFail(SitePublishingAuth, { siteId: site.id });
}

/** A new key in place of the old one; tokens signed with the old one fail from the commit on. */
export async function regeneratePublishingAuth(db: Db, site: Site): Promise<SitePublishingAuth> {
  const auth = await publishingAuthOf(db, site);
  const changes = { privateKey: newPrivateKey(), updatedAt: new Date() };
  await db.update(SitePublishingAuth, { siteId: site.id }, changes);
  return Object.assign(auth, changes);
}

/**
 * A key no token is signed with: a site without a key of its own is checked against it, so a refused
 * token costs the same time whether the site exists, has a key, or neither.
 */
const NO_SITE_KEY = new TextEncoder().encode(newPrivateKey());

/**
 * The claims of a visitor token signed with the key of site `siteId` (which need not exist), unexpired
 * (30 s of clock skew allowed), or null for any other token. A token signed with the key must also
 * expire, at most `maxLifetimeSeconds` after it was issued (400 otherwise, like its other claims):
 * without `exp` a leaked token would open the site until the key is regenerated.
 */
export async function verifyVisitorToken(
  db: Db,
  siteId: string,
  token: string,
  maxLifetimeSeconds: number,
): Promise<JWTPayload | null> {
  const auth = await db.findOneBy(SitePublishingAuth, { siteId });
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, auth ? new TextEncoder().encode(auth.privateKey) : NO_SITE_KEY, {
      algorithms: ['HS256'],
      clockTolerance: 30,
    }));
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
  if (!auth) return null;
  if (payload.exp === undefined) throw badRequest('visitorAuthToken: must have an expiry (exp)');
  // from iat, or from now when there is none or it lies ahead: the longer, so a future iat buys no time
  const now = Math.floor(Date.now() / 1000);
  const lifetime = payload.exp - Math.min(payload.iat ?? now, now);
  if (lifetime > maxLifetimeSeconds)
    throw badRequest(`visitorAuthToken: must expire at most ${maxLifetimeSeconds} s after it was issued (exp - iat)`);
  return payload;
}

export async function deletePublishingAuthOfSite(db: Db, siteId: string): Promise<void> {
  await db.delete(SitePublishingAuth, { siteId });
}
