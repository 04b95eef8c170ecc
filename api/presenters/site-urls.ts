/**
 * Where a site and its parts are published. The site answers at `https://<proxy>` when it has a proxy
 * origin, else at `https://<hostname>[/<basename>]`, else at PUBLISHED_BASE_URL/sites/<id>; a section
 * at `<site>/<path>`, a site space at `<site or section>/<path>`, default ones included, so a link
 * stays valid when the default changes. None (null, left out on the wire) while the site is not published.
 */
import type { Site } from '../../entities/Site';
import type { Urls } from './urls';

/** The site's published root URL, whether or not it is published now. */
export function siteAddress(site: Pick<Site, 'id' | 'proxy' | 'hostname' | 'basename'>, urls: Urls): string {
  if (site.proxy) return `https://${site.proxy}`;
  if (site.hostname) return `https://${site.hostname}${site.basename ? `/${encodeURIComponent(site.basename)}` : ''}`;
  return urls.published(`/sites/${site.id}`);
}

/** The URL of a section or site space: the paths under the site's address, in order. */
export function siteItemAddress(
  site: Pick<Site, 'id' | 'proxy' | 'hostname' | 'basename'>,
  paths: Array<string | null>,
  urls: Urls,
): string {
  return [siteAddress(site, urls), ...paths.filter((p): p is string => p !== null).map(encodeURIComponent)].join('/');
}

export function publishedOrNull(site: Site, address: () => string): string | null {
  return site.published ? address() : null;
}
