/** Integration secrets at rest: AES-256-GCM under INTEGRATION_SECRETS_KEY, bound to their integration. */
import { decryptSecrets, encryptSecrets } from '../../domain/integrations/secrets';

const config = { integrations: { secretsKey: 'k'.repeat(40), publishMaxBytes: 1 } };
const otherKey = { integrations: { secretsKey: 'j'.repeat(40), publishMaxBytes: 1 } };
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
});
