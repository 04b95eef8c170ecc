/**
 * An integration's secrets (the publish body's `secrets` map), stored encrypted with AES-256-GCM under
 * a key derived from INTEGRATION_SECRETS_KEY, and never returned by the API: only the environment sent
 * with an event carries them (decryptSecrets). The integration's id is the additional authenticated
 * data, so a ciphertext copied onto another integration's row does not decrypt.
 *
 * INTEGRATION_SECRETS_KEY is a key ring: the first key encrypts, every key may decrypt, so a new key can
 * be put first while what the old one wrote stays readable until `cli secrets rotate` re-encrypts it.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'crypto';
import type { Integration } from '../../entities/Integration';

type SecretsConfig = { integrations: { secretsKeys: string[] } };
type StoredSecrets = Pick<Integration, 'id' | 'secretsCiphertext'>;

/** The stored form: a version tag, then the IV, the tag and the ciphertext in base64url. */
const FORMAT = 'v1';
const ALGORITHM = 'aes-256-gcm';

function keyOf(material: string): Buffer {
  return Buffer.from(hkdfSync('sha256', material, '', 'integration-secrets', 32));
}

/** The stored ciphertext of `secrets` under the first key, or null when there are none. */
export function encryptSecrets(
  config: SecretsConfig,
  integrationId: string,
  secrets: Record<string, string>,
): string | null {
  if (!Object.keys(secrets).length) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, keyOf(config.integrations.secretsKeys[0]), iv);
  cipher.setAAD(Buffer.from(integrationId));
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), data]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/**
 * The secrets in clear and the position in the key ring of the key that opened them (0: the current
 * key); throws when no key of the ring opens them.
 */
export function openSecrets(
  config: SecretsConfig,
  integration: StoredSecrets,
): { secrets: Record<string, string>; keyIndex: number } {
  if (!integration.secretsCiphertext) return { secrets: {}, keyIndex: 0 };
  const [format, iv, tag, data] = integration.secretsCiphertext.split('.');
  if (format !== FORMAT || !iv || !tag || data === undefined)
    throw new Error(`integration ${integration.id}: stored secrets are not in the ${FORMAT} format`);
  const keys = config.integrations.secretsKeys;
  for (const [keyIndex, material] of keys.entries()) {
    const decipher = createDecipheriv(ALGORITHM, keyOf(material), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(integration.id));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    let clear: Buffer;
    try {
      clear = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
    } catch {
      continue; // not this key's (GCM's tag does not verify)
    }
    return { secrets: JSON.parse(clear.toString('utf8')) as Record<string, string>, keyIndex };
  }
  throw new Error(
    `integration ${integration.id}: no key of INTEGRATION_SECRETS_KEY (${keys.length}) opens its stored secrets`,
  );
}

/** The integration's secrets in clear ({} when it has none); throws when no key of the ring opens them. */
export function decryptSecrets(config: SecretsConfig, integration: StoredSecrets): Record<string, string> {
  return openSecrets(config, integration).secrets;
}
