/**
 * Links between the documents of an import: staged markdown holds a placeholder that carries the link itself
 * (`x-import-<nonce>:<base64url of [target, href, hash]>`), so no table of links grows with the import; the commit
 * makes it a page link when `target` was imported, else `href` (with `hash`).
 */

/** A link between staged documents, resolved at the commit. */
export interface StagedLink {
  /** the document it names, as the import knows documents (a normalized URL, an archive path) */
  target: string;
  /** where it points when that document was not imported */
  href: string;
  /** the fragment (`#section`) either form keeps */
  hash: string;
}

export function linkPlaceholder(nonce: string, link: StagedLink): string {
  const encoded = Buffer.from(JSON.stringify([link.target, link.href, link.hash])).toString('base64url');
  return `x-import-${nonce}:${encoded}`;
}

/** Replaces the placeholders of `nonce` in staged markdown; `pageIdOf` names the page a target was imported as. */
export function linkResolver(
  nonce: string,
  pageIdOf: (target: string) => string | undefined,
): (markdown: string) => string {
  const placeholder = new RegExp(`x-import-${nonce}:([A-Za-z0-9_-]+)`, 'g');
  return (markdown) =>
    markdown.replace(placeholder, (_m, encoded: string) => {
      const [target, href, hash] = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as string[];
      const pageId = pageIdOf(target);
      return `${pageId ? `page:${pageId}` : href}${hash}`;
    });
}
