/**
 * URLs as the request log shows them: the value of every credential-like query parameter (a download
 * link's signature, a token sent in the query string, which is refused but still arrives) is replaced,
 * so a log never holds something that opens a resource.
 */
const CREDENTIAL_PARAMETERS = new Set([
  'signature',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'key',
  'apikey',
  'api_key',
  'sharekey',
  'secret',
  'client_secret',
  'password',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
]);

export const REDACTED = '[REDACTED]';

function parameterName(raw: string): string {
  const name = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name).toLowerCase();
  } catch {
    return name.toLowerCase(); // malformed percent-encoding: compared as sent
  }
}

export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return CREDENTIAL_PARAMETERS.has(parameterName(name)) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}
