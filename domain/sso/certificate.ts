/** X.509 certificates of SAML identity providers, accepted as PEM or as bare base64 DER. */
import { X509Certificate } from 'crypto';
import { badRequest } from '../errors';

const PEM = /^-----BEGIN CERTIFICATE-----\s+([A-Za-z0-9+/=\s]+?)\s*-----END CERTIFICATE-----$/;
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;

/**
 * The certificate as canonical PEM, after checking that it really parses as one X.509 certificate;
 * 400 on `field` otherwise.
 */
export function canonicalCertificate(text: string, field = 'certificate'): string {
  const trimmed = text.trim();
  const body = PEM.exec(trimmed)?.[1] ?? (BASE64.test(trimmed) ? trimmed : null);
  const invalid = badRequest(`${field}: must be a PEM or base64-encoded X.509 certificate`);
  if (!body) throw invalid;
  const der = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  try {
    return new X509Certificate(der).toString().trim();
  } catch {
    throw invalid;
  }
}
