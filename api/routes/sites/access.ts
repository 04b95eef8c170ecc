/**
 * How every site route reaches its site: the organization must be the caller's (else 404, as for an
 * unknown one), then the site must be one of its sites (404); reads need `view` on it, writes `admin`,
 * and run in one transaction that holds the site's lock.
 */

import { authorize, permissionsOf, SitePermissions } from '../../../domain/access/authorize';
import { AccessContext } from '../../../domain/access/context';
import { badRequest, notFound } from '../../../domain/errors';
import { findLockedSite } from '../../../domain/sites/lock';
import { createSpaceForSite, NewSpaceOptions } from '../../../domain/sites/new-space';
import type { ItemRef } from '../../../domain/sites/order';
import { sortItem } from '../../../domain/sites/sort';
import type { Organization } from '../../../entities/Organization';
import { Site } from '../../../entities/Site';
import { Space } from '../../../entities/Space';
import type { WorkTx } from '../../../platform/db/after-commit';
import { findOneWhere } from '../../../platform/db/rows';
import { inTransaction, type WorkSource } from '../../../platform/db/transactions';
import { loadVisibleOrganization } from '../../loaders';
import type { Caller } from '../../middleware/authenticate';
import { anchorOf } from './schema';

/** A site the caller may view, with their permissions on it. */
export async function viewableSite(
  access: AccessContext,
  organizationId: string,
  siteId: string,
): Promise<{ site: Site; permissions: SitePermissions }> {
  await loadVisibleOrganization(access, organizationId);
  const site = await findOneWhere(access.db, Site, 'x.id = ? AND x.organizationId = ?', [siteId, organizationId]);
  if (!site) throw notFound('site');
  return { site, permissions: await authorize(access, { kind: 'site', site }, 'view') };
}

export interface SiteWrite {
  /** Its writes may start jobs and events (a new space's, an uninstall's), so it can. */
  db: WorkTx;
  site: Site;
  organization: Organization;
  access: AccessContext;
}

/** Runs `write` in one transaction, the site locked and the caller holding `action` on it (its admins, unless said). */
export async function writeSite<T>(
  work: WorkSource,
  caller: Caller,
  params: SiteRef,
  write: (w: SiteWrite) => Promise<T>,
  action: keyof SitePermissions = 'admin',
): Promise<T> {
  return inTransaction(work, async (db) => {
    const w = await lockedSiteFor(db, caller, params, action);
    if (!w) throw notFound('site');
    return write(w);
  });
}

/**
 * The same for a DELETE, which answers 204 also when there is nothing to delete: no such site is no error, unless
 * `gone` (an `If-Match` check) says otherwise.
 */
export async function deleteInSite(
  work: WorkSource,
  caller: Caller,
  params: SiteRef,
  remove: (w: SiteWrite) => Promise<void>,
  gone?: () => void,
): Promise<void> {
  await inTransaction(work, async (db) => {
    const w = await lockedSiteFor(db, caller, params);
    if (w) await remove(w);
    else gone?.();
  });
}

interface SiteRef {
  organizationId: string;
  siteId: string;
}

async function lockedSiteFor(
  db: WorkTx,
  caller: Caller,
  params: SiteRef,
  action: keyof SitePermissions = 'admin',
): Promise<SiteWrite | null> {
  const access = AccessContext.forCaller(db, caller);
  const organization = await loadVisibleOrganization(access, params.organizationId);
  const site = await findLockedSite(db, organization.id, params.siteId);
  if (!site) return null;
  await authorize(access, { kind: 'site', site }, action);
  return { db, site, organization, access };
}

/** A live space of the organization that the caller can view, named by `field` of the body (else 400). */
export async function spaceForSite(
  access: AccessContext,
  organization: Organization,
  spaceId: string,
  field: string,
): Promise<Space> {
  const space = await findOneWhere(access.db, Space, 'x.id = ? AND x.organizationId = ? AND x.deletedAt IS NULL', [
    spaceId,
    organization.id,
  ]);
  if (!space || !(await permissionsOf(access, { kind: 'space', space })).view)
    throw badRequest(`${field}: no such space in this organization`);
  return space;
}

/**
 * The space a section or site space is created with: the body's `spaceId`, a space of the organization
 * (else 400), or for null a new blank space titled `title` (GitBook 0.202).
 */
export async function spaceOrNew(
  w: SiteWrite,
  spaceId: string | null,
  title: string,
  options: NewSpaceOptions,
): Promise<Space> {
  if (spaceId === null) return createSpaceForSite(w.db, w.organization.id, title, 'empty', options);
  return spaceForSite(w.access, w.organization, spaceId, 'spaceId');
}

/** Sorts the item (PATCH …/structure/sort and the deprecated moves); answers the site it sorted. */
export function sortInSite(
  work: WorkSource,
  caller: Caller,
  params: SiteRef,
  item: ItemRef,
  position: Parameters<typeof anchorOf>[0],
): Promise<Site> {
  return writeSite(work, caller, params, async ({ db, site }) => {
    await sortItem(db, site, item, anchorOf(position));
    return site;
  });
}
