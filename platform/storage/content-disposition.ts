/** `Content-Disposition: attachment` for any file name, the same for both back ends (RFC 6266, RFC 5987 `filename*`). */

// encodeURIComponent throws on a lone UTF-16 surrogate; such a name gets U+FFFD in its place
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function attachmentDisposition(filename: string): string {
  const name = filename.replace(LONE_SURROGATE, '\uFFFD');
  // the plain `filename` is for clients without RFC 5987: printable ASCII only, no quote, backslash or percent
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  // RFC 5987 attr-char excludes ' ( ) * which encodeURIComponent leaves as they are
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
