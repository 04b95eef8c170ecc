/** Presents sites and their structure for the caller: permissions, counts and the spaces inside, in a few statements. */
import { permissionsOf } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { notFound } from '../../../domain/errors';
import { shownSiteSpaceCounts } from '../../../domain/sites/queries';
import { loadStructure, SiteStructure } from '../../../domain/sites/structure';
import type { Site } from '../../../entities/Site';
import { versionTag } from '../../middleware/conditional';
import { PresentedSite, presentSite } from '../../presenters/site';
import type { PresentedSpace } from '../../presenters/site-space';
import type { Urls } from '../../presenters/urls';
import { presentSpacesFor } from '../spaces/present';

export async function presentSitesFor(access: AccessContext, sites: Site[], urls: Urls): Promise<PresentedSite[]> {
  const counts = await shownSiteSpaceCounts(
    access.db,
    sites.map((s) => s.id),
  );
  const presented = [];
  for (const site of sites)
    presented.push(presentSite(site, counts.get(site.id)!, await permissionsOf(access, { kind: 'site', site }), urls));
  return presented;
}

export async function presentSiteFor(access: AccessContext, site: Site, urls: Urls): Promise<PresentedSite> {
  return (await presentSitesFor(access, [site], urls))[0];
}

/** The site's ETag, from its answer: the row's version, the caller's permissions and the site spaces it shows. */
export function siteTag(site: Site, answer: PresentedSite): string {
  return versionTag(site.version, answer.permissions, answer.siteSpaces);
}

export interface PresentableStructure {
  structure: SiteStructure;
  /** each shown space, presented for the caller, by id */
  spaces: Map<string, PresentedSpace>;
}

/** The site's structure with its spaces presented for the caller; `shows` as loadStructure takes it. */
export async function structureFor(
  access: AccessContext,
  site: Site,
  urls: Urls,
  shows?: (condition: string | null) => boolean,
): Promise<PresentableStructure> {
  const structure = await loadStructure(access.db, site, shows);
  const unique = [...new Map(structure.siteSpaces.map((s) => [s.space.id, s.space])).values()];
  const presented = await presentSpacesFor(access, unique, urls);
  return { structure, spaces: new Map(presented.map((p) => [p.id, p])) };
}

/** The item a write answers with, read again after its commit: one a concurrent request removed since is a 404. */
export function stillShown<T>(item: T | undefined, name: string): T {
  if (item === undefined) throw notFound(name);
  return item;
}
