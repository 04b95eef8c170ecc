/**
 * URLs as the request log shows them. Only the values of the query parameters the matched operation
 * declares are shown, and of those not the credentials (a download link's signature, a share key, a
 * visitor token); every other value is replaced, names kept. A list of what to hide always missed
 * something (`visitorAuthToken`, `Authorization=Bearer …`, the claims of `visitor.<name>`); a list of
 * what to show, taken from the operations' own schemas, fails safe.
 */

/** Declared parameters whose values open something: never shown, whatever the operation. */
const CREDENTIAL_PARAMETERS = new Set([
  'signature',
  'sharekey',
  'visitorauthtoken',
  'token',
  'access_token',
  'authorization',
  'key',
  'secret',
  'password',
]);

export const REDACTED = '[REDACTED]';

/** What the request log may show of an operation's query: its declared parameters but the credentials. */
export function loggedQueryParameters(declared: string[]): ReadonlySet<string> {
  return new Set(declared.filter((name) => !CREDENTIAL_PARAMETERS.has(name.toLowerCase())));
}

function parameterName(raw: string): string {
  const name = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name; // malformed percent-encoding: compared as sent
  }
}

/**
 * Path segments that are credentials: the link of an invitation mail, and a link invite's id (the secret of the
 * link, as on GitBook). Each is replaced, the path's shape kept.
 */
const SECRET_SEGMENTS = [/^(\/v1\/invite-tokens\/)[^/?#]+/i, /^(\/v1\/orgs\/[^/?#]+\/(?:link-)?invites\/)[^/?#]+/i];

function redactPath(url: string): string {
  return SECRET_SEGMENTS.reduce((path, secret) => path.replace(secret, `$1${REDACTED}`), url);
}

/** `logged`: the parameters whose values are shown (none when the request matched no operation). */
export function redactUrl(rawUrl: string, logged: ReadonlySet<string> = new Set()): string {
  const url = redactPath(rawUrl);
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      // a parameter without a value is all value (`?dpt_…`): shown only when declared
      if (eq < 0) return logged.has(parameterName(pair)) ? pair : REDACTED;
      const name = pair.slice(0, eq);
      return logged.has(parameterName(name)) ? pair : `${name}=${REDACTED}`;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}
