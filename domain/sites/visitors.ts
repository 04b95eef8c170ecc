/**
 * Who reads a published site as a visitor: what the request presents for the site — a share link's
 * key (`shareKey`), a visitor token (`visitorAuthToken`, GitBook's name) and unsigned claims
 * (`visitor.<name>` parameters) — checked here. A key or token that is presented must be good (404
 * otherwise, as for a site that is not there); the one access function then decides what the passes
 * open (domain/access/authorize.ts, `publishedSite`).
 */

import type { Site } from '../../entities/Site';
import type { Db } from '../db';
import { notFound } from '../errors';
import type { VisitorClaims } from './adaptive/evaluate';
import type { AdaptiveSchema } from './adaptive/json-schema';
import { signedClaims, unsignedClaims, visitorClaims } from './adaptive/visitor-claims';
import { verifyVisitorToken } from './publishing-auth';
import { isActiveShareKey } from './share-links';

/** A site visibility a verified credential of the request satisfies. */
export type SitePass = 'share-link' | 'visitor-auth';

export interface SiteVisitor {
  passes: SitePass[];
  /** the claims the request presents; null when it presents none (no token, no `visitor.<name>`) */
  claims: VisitorClaims | null;
}

export interface VisitorCredentials {
  shareKey?: string;
  visitorAuthToken?: string;
  /** the request's whole query, for its `visitor.<name>` parameters */
  query: Record<string, unknown>;
}

/** 404 unless `key` is the key of an active share link of the site. */
export async function assertShareKey(db: Db, site: Site, key: string): Promise<void> {
  if (!(await isActiveShareKey(db, site.id, key))) throw notFound('site');
}

/** `maxTokenLifetimeSeconds`: the longest a visitor token may live (VISITOR_TOKEN_MAX_LIFETIME_SECONDS). */
export async function siteVisitor(
  db: Db,
  site: Site,
  credentials: VisitorCredentials,
  maxTokenLifetimeSeconds: number,
): Promise<SiteVisitor> {
  const passes: SitePass[] = [];
  if (credentials.shareKey !== undefined) {
    await assertShareKey(db, site, credentials.shareKey);
    passes.push('share-link');
  }
  const schema = site.adaptiveSchema as AdaptiveSchema | null;
  const unsigned = unsignedClaims(schema, credentials.query);
  if (credentials.visitorAuthToken === undefined)
    return { passes, claims: Object.keys(unsigned).length ? visitorClaims({}, unsigned) : null };
  const payload = await verifyVisitorToken(db, site, credentials.visitorAuthToken, maxTokenLifetimeSeconds);
  passes.push('visitor-auth');
  return { passes, claims: visitorClaims(signedClaims(schema, payload), unsigned) };
}
