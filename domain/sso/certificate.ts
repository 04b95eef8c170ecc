/** X.509 certificates of SAML identity providers, accepted as PEM or as bare base64 DER. */
import { X509Certificate } from 'crypto';
import { badRequest } from '../errors';

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;

/**
 * The base64 between the PEM markers (whitespace after BEGIN, then at least one character). Cut by
 * position: the pattern it replaces (`\s+([…\s]+?)\s*` between the markers) backtracked for 7 minutes
 * on 16 KB of spaces without an END marker.
 */
function pemBody(text: string): string | null {
  if (!text.startsWith(BEGIN) || !text.endsWith(END)) return null;
  const inner = text.slice(BEGIN.length, text.length - END.length);
  return inner.length >= 2 && /^\s/.test(inner) && BASE64.test(inner) ? inner : null;
}

/**
 * The certificate as canonical PEM, after checking that it really parses as one X.509 certificate;
 * 400 on `field` otherwise.
 */
export function canonicalCertificate(text: string, field = 'certificate'): string {
  const trimmed = text.trim();
  const body = pemBody(trimmed) ?? (BASE64.test(trimmed) ? trimmed : null);
  const invalid = badRequest(`${field}: must be a PEM or base64-encoded X.509 certificate`);
  if (!body) throw invalid;
  const der = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  try {
    return new X509Certificate(der).toString().trim();
  } catch {
    throw invalid;
  }
}
