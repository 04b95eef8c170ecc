/**
 * An integration's secrets (the publish body's `secrets` map), stored encrypted with AES-256-GCM under
 * a key derived from INTEGRATION_SECRETS_KEY, and never returned by the API: only the environment sent
 * with an event carries them (decryptSecrets). The integration's id is the additional authenticated
 * data, so a ciphertext copied onto another integration's row does not decrypt.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'crypto';
import type { Integration } from '../../entities/Integration';
import type { Config } from '../config';

type SecretsConfig = Pick<Config, 'integrations'>;

/** The stored form: a version tag, then the IV, the tag and the ciphertext in base64url. */
const FORMAT = 'v1';
const ALGORITHM = 'aes-256-gcm';

function keyOf(config: SecretsConfig): Buffer {
  return Buffer.from(hkdfSync('sha256', config.integrations.secretsKey, '', 'integration-secrets', 32));
}

/** The stored ciphertext of `secrets`, or null when there are none. */
export function encryptSecrets(
  config: SecretsConfig,
  integrationId: string,
  secrets: Record<string, string>,
): string | null {
  if (!Object.keys(secrets).length) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, keyOf(config), iv);
  cipher.setAAD(Buffer.from(integrationId));
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), data]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The integration's secrets in clear ({} when it has none); throws when the key is not the one they were stored with. */
export function decryptSecrets(
  config: SecretsConfig,
  integration: Pick<Integration, 'id' | 'secretsCiphertext'>,
): Record<string, string> {
  if (!integration.secretsCiphertext) return {};
  const [format, iv, tag, data] = integration.secretsCiphertext.split('.');
  if (format !== FORMAT || !iv || !tag || data === undefined)
    throw new Error(`integration ${integration.id}: stored secrets are not in the ${FORMAT} format`);
  const decipher = createDecipheriv(ALGORITHM, keyOf(config), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(integration.id));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const clear = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
  return JSON.parse(clear.toString('utf8')) as Record<string, string>;
}
