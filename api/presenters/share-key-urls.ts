/**
 * Published URLs opened with a share link's key (`?share=<key>`): what a share link hands out, and what
 * `shareKey` on the published view, the section and site-space lists and a space resolves them to.
 */

export function withShareKey(url: string, key: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}share=${encodeURIComponent(key)}`;
}

/**
 * The presented answer with every `urls.published` that lies under the site's address opened with the
 * key; URLs of other sites (a space's own, when it is published elsewhere first) stay as they are.
 */
export function openedWithShareKey<T>(presented: T, siteAddress: string, key: string): T {
  const underSite = (url: unknown): url is string =>
    typeof url === 'string' && (url === siteAddress || url.startsWith(`${siteAddress}/`));
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const copy: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value)) copy[name] = walk(inner);
    if (copy.urls && typeof copy.urls === 'object') {
      const urls = copy.urls as Record<string, unknown>;
      if (underSite(urls.published)) copy.urls = { ...urls, published: withShareKey(urls.published, key) };
    }
    return copy;
  };
  return walk(presented) as T;
}
