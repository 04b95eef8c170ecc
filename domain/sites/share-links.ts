/**
 * Share links of a site (GitBook's `…/share-links`): each has a random key that opens the published
 * `share-link` site to whoever holds it, while the link is active. A presented key is compared with
 * every active key of the site through their SHA-256 hashes in constant time, so neither the database
 * index nor an early mismatch tells an attacker how much of a guess was right.
 */
import { createHash, randomBytes, timingSafeEqual } from 'crypto';
import { Site } from '../../entities/Site';
import { SiteShareLink } from '../../entities/SiteShareLink';
import type { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { conflict, notFound } from '../errors';
import { newId } from '../ids';
import { findSection, loadStructure } from './structure';

/** Keeps the constant-time search over a site's keys short. */
export const SHARE_LINKS_PER_SITE = 100;

/** 192 random bits, 32 URL-safe characters. */
function newShareKey(): string {
  return randomBytes(24).toString('base64url');
}

const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest();

export function shareLinksOfSiteQuery(db: Db, siteId: string) {
  return db.createQueryBuilder(SiteShareLink, 'l').where('l.siteId = :siteId', { siteId });
}

/** A new active link; the site is locked by the caller, so the count holds. */
export async function createShareLink(db: Db, site: Site, name: string): Promise<SiteShareLink> {
  if ((await db.countBy(SiteShareLink, { siteId: site.id })) >= SHARE_LINKS_PER_SITE) {
    throw conflict(`the site already has ${SHARE_LINKS_PER_SITE} share links, the most it may have: delete one first`);
  }
  const now = new Date();
  const link = Object.assign(new SiteShareLink(), {
    id: newId(),
    siteId: site.id,
    name,
    key: newShareKey(),
    active: true,
    createdAt: now,
    updatedAt: now,
  } satisfies SiteShareLink);
  await db.insert(SiteShareLink, link);
  return link;
}

export async function findShareLink(db: Db, siteId: string, id: string): Promise<SiteShareLink> {
  const link = await db.findOneBy(SiteShareLink, { id, siteId });
  if (!link) throw notFound('share link');
  return link;
}

export async function updateShareLink(
  db: Db,
  link: SiteShareLink,
  patch: { name?: string; active?: boolean },
): Promise<SiteShareLink> {
  const changes = { ...patch, updatedAt: new Date() };
  await db.update(SiteShareLink, { id: link.id }, changes);
  return Object.assign(link, changes);
}

export async function deleteShareLink(db: Db, siteId: string, id: string): Promise<void> {
  await db.delete(SiteShareLink, { id, siteId });
}

/** Whether `key` is the key of an active link of the site, compared without revealing how close it came. */
export async function isActiveShareKey(db: Db, siteId: string, key: string): Promise<boolean> {
  const given = digest(key);
  let found = false;
  for (const link of await db.findBy(SiteShareLink, { siteId, active: true })) {
    // every key is compared, a match or not, so the time taken does not depend on where it is
    if (timingSafeEqual(given, digest(link.key))) found = true;
  }
  return found;
}

/** A deleted site's links go with it. */
export async function deleteShareLinksOfSite(db: Db, siteId: string): Promise<void> {
  await db.delete(SiteShareLink, { siteId });
}

export interface SharedSiteSpace {
  site: Site;
  /** the paths of the space's page in the site: its section's (if any), then its site space's */
  paths: Array<string | null>;
}

/**
 * Where `key` opens the space: the first (oldest) published share-link site of the space's organization
 * that shows the space and has `key` as an active link's key; null when there is none.
 */
export async function siteSpaceOpenedByKey(db: Db, space: Space, key: string): Promise<SharedSiteSpace | null> {
  const sites = await db
    .createQueryBuilder(Site, 's')
    .where('s.organizationId = :organizationId AND s.published = 1 AND s.visibility = :visibility', {
      organizationId: space.organizationId,
      visibility: 'share-link',
    })
    .andWhere('EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.siteId = s.id AND ss.spaceId = :spaceId)', {
      spaceId: space.id,
    })
    .orderBy('s.createdAt', 'ASC')
    .addOrderBy('s.id', 'ASC')
    .getMany();
  for (const site of sites) {
    if (!(await isActiveShareKey(db, site.id, key))) continue;
    const structure = await loadStructure(db, site);
    const placed = structure.siteSpaces.find((s) => s.space.id === space.id);
    if (!placed) continue;
    const section = placed.row.sectionId === null ? null : findSection(structure, placed.row.sectionId)!;
    return { site, paths: [section?.row.path ?? null, placed.row.path] };
  }
  return null;
}
