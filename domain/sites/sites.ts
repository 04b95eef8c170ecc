/** Sites: create, update, delete, publish. Writes to an existing site run under its lock (lock.ts). */

import { Site, SiteAgentsContext, SiteType, SiteVisibility } from '../../entities/Site';
import { SiteSection } from '../../entities/SiteSection';
import { SiteSectionGroup } from '../../entities/SiteSectionGroup';
import { SiteSpace } from '../../entities/SiteSpace';
import type { Space } from '../../entities/Space';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import { isDuplicateKey } from '../../platform/db/transactions';
import { badRequest, conflict } from '../errors';
import { newId } from '../ids';
import { uninstallAllFromSite } from '../integrations/content-installations';
import { setDefaultSection, setDefaultSiteSpace } from './defaults';
import { deletePublishingAuthOfSite } from './publishing-auth';
import { deleteShareLinksOfSite } from './share-links';
import { placeSiteSpace } from './site-spaces';
import { findSection, findSiteSpace, loadStructure } from './structure';

export const UNTITLED_SITE = 'Untitled site';

export interface NewSite {
  type?: SiteType;
  title?: string;
  visibility?: SiteVisibility;
}

/** A new unpublished site showing `spaces` at its root level, in that order (the first is the default). */
export async function createSite(db: Db, organizationId: string, input: NewSite, spaces: Space[]): Promise<Site> {
  const now = new Date();
  const site = Object.assign(new Site(), {
    id: newId(),
    organizationId,
    type: input.type ?? 'basic',
    title: input.title ?? UNTITLED_SITE,
    hostname: null,
    basename: null,
    proxy: null,
    visibility: input.visibility ?? 'public',
    published: false,
    adaptiveContentEnabled: false,
    agentsContext: 'included',
    adaptiveSchema: null,
    adaptiveSchemaUpdatedAt: null,
    defaultSiteSectionId: null,
    defaultSiteSpaceId: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  } satisfies Site);
  await db.insert(Site, site);
  for (const space of spaces) await placeSiteSpace(db, site, space, null);
  return site;
}

export interface SitePatch {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string | null;
  hostname?: string | null;
  proxy?: string | null;
  adaptiveContent?: { enabled: boolean };
  agentsContext?: SiteAgentsContext;
  /** a site space of the root level, or of any section (it becomes that section's default) */
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
}

const hostnameTaken = () => conflict('hostname: already used by another site');

export async function updateSite(db: Db, site: Site, patch: SitePatch): Promise<Site> {
  // the adaptive schema is written by its own operation
  const changes: Partial<Omit<Site, 'adaptiveSchema'>> = { updatedAt: new Date() };
  for (const key of ['title', 'visibility', 'basename', 'proxy', 'agentsContext'] as const)
    if (patch[key] !== undefined) Object.assign(changes, { [key]: patch[key] });
  if (patch.adaptiveContent) changes.adaptiveContentEnabled = patch.adaptiveContent.enabled;
  if (patch.hostname !== undefined && patch.hostname !== site.hostname) {
    if (patch.hostname !== null && (await db.existsBy(Site, { hostname: patch.hostname }))) throw hostnameTaken();
    changes.hostname = patch.hostname;
  }
  if (patch.defaultSiteSection !== undefined || patch.defaultSiteSpace !== undefined) {
    const structure = await loadStructure(db, site);
    if (patch.defaultSiteSection !== undefined) {
      if (!findSection(structure, patch.defaultSiteSection))
        throw badRequest('defaultSiteSection: no such section in this site');
      await setDefaultSection(db, site, patch.defaultSiteSection);
    }
    if (patch.defaultSiteSpace !== undefined) {
      const placed = findSiteSpace(structure, patch.defaultSiteSpace);
      if (!placed) throw badRequest('defaultSiteSpace: no such site space in this site');
      const section = placed.row.sectionId === null ? null : findSection(structure, placed.row.sectionId)!.row;
      await setDefaultSiteSpace(db, site, section, placed.row.id);
    }
  }
  try {
    await db.update(Site, { id: site.id }, changes);
  } catch (err) {
    // another site took the hostname since the check
    if (isDuplicateKey(err)) throw hostnameTaken();
    throw err;
  }
  return Object.assign(site, changes);
}

/** Deletes the site with its structure, share links, signing key and integration installations; its hostname is free again. The spaces stay. */
export async function deleteSite(db: WorkTx, site: Site): Promise<void> {
  await deleteShareLinksOfSite(db, site.id);
  await deletePublishingAuthOfSite(db, site.id);
  await db.delete(SiteSpace, { siteId: site.id });
  await db.delete(SiteSection, { siteId: site.id });
  await db.delete(SiteSectionGroup, { siteId: site.id });
  await uninstallAllFromSite(db, site.id);
  await db.delete(Site, { id: site.id });
}

/** Publishes or unpublishes the site; one that shows no site space cannot be published (409). */
export async function setPublished(db: Db, site: Site, published: boolean): Promise<Site> {
  if (published && !(await loadStructure(db, site)).siteSpaces.length)
    throw conflict('the site has no site space to publish');
  const changes = { published, updatedAt: new Date() };
  await db.update(Site, { id: site.id }, changes);
  return Object.assign(site, changes);
}
