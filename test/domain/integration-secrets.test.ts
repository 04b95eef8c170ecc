/** Integration secrets at rest: AES-256-GCM under INTEGRATION_SECRETS_KEY, bound to their integration. */
import { decryptSecrets, encryptSecrets, openSecrets } from '../../domain/integrations/secrets';

const config = { integrations: { secretsKeys: ['k'.repeat(40)] } };
const otherKey = { integrations: { secretsKeys: ['j'.repeat(40)] } };
const secrets = { API_KEY: 'sekret', 'with.dots': 'é ✓ 🔑' };

describe('integration secrets', () => {
  it('round-trips, with a fresh IV each time, and stores nothing in clear', () => {
    const a = encryptSecrets(config, 'int1', secrets)!;
    const b = encryptSecrets(config, 'int1', secrets)!;
    expect(a).not.toBe(b);
    expect(a).not.toContain('sekret');
    expect(a.startsWith('v1.')).toBe(true);
    expect(decryptSecrets(config, { id: 'int1', secretsCiphertext: a })).toEqual(secrets);
    expect(decryptSecrets(config, { id: 'int1', secretsCiphertext: b })).toEqual(secrets);
  });

  it('stores no ciphertext for no secrets, and reads none back', () => {
    expect(encryptSecrets(config, 'int1', {})).toBeNull();
    expect(decryptSecrets(config, { id: 'int1', secretsCiphertext: null })).toEqual({});
  });

  it('refuses another key, another integration (the id is authenticated) and any altered byte', () => {
    const stored = encryptSecrets(config, 'int1', secrets)!;
    expect(() => decryptSecrets(otherKey, { id: 'int1', secretsCiphertext: stored })).toThrow();
    expect(() => decryptSecrets(config, { id: 'int2', secretsCiphertext: stored })).toThrow();
    const [format, iv, tag, data] = stored.split('.');
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] ^= 1;
    expect(() =>
      decryptSecrets(config, {
        id: 'int1',
        secretsCiphertext: [format, iv, tag, flipped.toString('base64url')].join('.'),
      }),
    ).toThrow();
    expect(() => decryptSecrets(config, { id: 'int1', secretsCiphertext: 'v0.x.y.z' })).toThrow(/format/);
  });

  it('a key ring writes with its first key and reads with any of them', () => {
    const old = encryptSecrets(config, 'int1', secrets)!;
    const rotated = { integrations: { secretsKeys: ['n'.repeat(40), 'k'.repeat(40)] } };
    expect(openSecrets(rotated, { id: 'int1', secretsCiphertext: old })).toEqual({ secrets, keyIndex: 1 });
    const fresh = encryptSecrets(rotated, 'int1', secrets)!;
    expect(openSecrets(rotated, { id: 'int1', secretsCiphertext: fresh })).toEqual({ secrets, keyIndex: 0 });
    // the new key alone reads what it wrote, not what the old key wrote
    const newOnly = { integrations: { secretsKeys: ['n'.repeat(40)] } };
    expect(decryptSecrets(newOnly, { id: 'int1', secretsCiphertext: fresh })).toEqual(secrets);
    expect(() => decryptSecrets(newOnly, { id: 'int1', secretsCiphertext: old })).toThrow(
      'integration int1: no key of INTEGRATION_SECRETS_KEY (1) opens its stored secrets',
    );
  });
});
