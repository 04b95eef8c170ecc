/**
 * Who reads a published site as a visitor: what the request presents for the site — a share link's
 * key (`shareKey`), a visitor token (`visitorAuthToken`, GitBook's name) and unsigned claims
 * (`visitor.<name>` parameters) — checked here. A key or token that is presented must be good (404
 * otherwise, as for a site that is not there); the one access function then decides what the passes
 * open (domain/access/authorize.ts, `publishedSite`).
 */

import type { JWTPayload } from 'jose';
import { Site } from '../../entities/Site';
import { findOneWhere } from '../../platform/db/rows';
import type { Db } from '../../platform/db/transactions';
import { authorize } from '../access/authorize';
import type { AccessContext } from '../access/context';
import type { SitePass } from '../access/targets';
import { notFound } from '../errors';
import type { VisitorClaims } from './adaptive/evaluate';
import type { AdaptiveSchema } from './adaptive/json-schema';
import { signedClaims, unsignedClaims, visitorClaims } from './adaptive/visitor-claims';
import { verifyVisitorToken } from './publishing-auth';
import { isActiveShareKey } from './share-links';

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

/** What a request for a site's published view names: the site, under an organization that need not be the caller's. */
export interface PublishedSiteRequest {
  organizationId: string;
  siteId: string;
  credentials: VisitorCredentials;
  /** the longest a visitor token may live (VISITOR_TOKEN_MAX_LIFETIME_SECONDS) */
  maxTokenLifetimeSeconds: number;
}

export interface OpenedSite {
  site: Site;
  visitor: SiteVisitor;
  /** a member who views the site reads all of it, whatever its conditions */
  viewAll: boolean;
}

/**
 * The published site the request may view, with the visitor it presents. Every refusal — no such
 * site, a site of another organization, one not published, a share key or a visitor token that is not
 * the site's, no pass at all — is the one 404 `published site not found`, after the same look-ups
 * (the key and the token are checked even when there is no site), so neither the answer nor its time
 * tells a hidden site from one that does not exist. Unsigned claims are validated against the site's
 * schema only once the site is open, so they cannot probe it either.
 */
/** What every refusal of the published view names. */
const HIDDEN = 'published site';

export async function openPublishedSite(access: AccessContext, request: PublishedSiteRequest): Promise<OpenedSite> {
  const { db } = access;
  const { siteId, credentials } = request;
  const site = await findOneWhere(db, Site, 'x.id = ? AND x.organizationId = ?', [siteId, request.organizationId]);
  const passes: SitePass[] = [];
  let refused = !site;
  if (credentials.shareKey !== undefined) {
    if (await isActiveShareKey(db, siteId, credentials.shareKey)) passes.push('share-link');
    else refused = true;
  }
  let payload: JWTPayload | null = null;
  if (credentials.visitorAuthToken !== undefined) {
    payload = await verifyVisitorToken(db, siteId, credentials.visitorAuthToken, request.maxTokenLifetimeSeconds);
    if (payload) passes.push('visitor-auth');
    else refused = true;
  }
  if (refused || !site) throw notFound(HIDDEN);
  const perms = await authorize(access, { kind: 'publishedSite', site, passes }, 'view', HIDDEN);
  const schema = site.adaptiveSchema as AdaptiveSchema | null;
  const unsigned = unsignedClaims(schema, credentials.query);
  const claims = payload
    ? visitorClaims(signedClaims(schema, payload), unsigned)
    : Object.keys(unsigned).length
      ? visitorClaims({}, unsigned)
      : null;
  return { site, visitor: { passes, claims }, viewAll: perms.viewAll };
}
