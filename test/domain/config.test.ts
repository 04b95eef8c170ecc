/** Configuration: the signing secrets have no default, and the service refuses to start without them. */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { loadConfig, loadDatabaseConfig } from '../../platform/config';
import { withEnv } from '../support/env';

const ROOT = path.join(__dirname, '..', '..');
const SECRET = 'x'.repeat(32);

/** loadConfig() under `env` in place of the variables it names (undefined: unset). */
function loadWith(env: Record<string, string | undefined>) {
  return withEnv(env, loadConfig);
}

describe('signing secrets', () => {
  const complete = {
    CURSOR_SECRET: SECRET,
    BLOB_URL_SECRET: SECRET,
    INTEGRATION_SECRETS_KEY: SECRET,
    BLOB_STORE: 'local',
  };

  it('are read from the environment', () => {
    const config = loadWith({ ...complete, CURSOR_SECRET: 'c'.repeat(40) });
    expect(config.cursorSecret).toBe('c'.repeat(40));
    expect(config.blobs.urlSecret).toBe(SECRET);
  });

  it('have no default: a missing or short one stops the process naming the variable', () => {
    expect(() => loadWith({ ...complete, CURSOR_SECRET: undefined })).toThrow(/^CURSOR_SECRET: is required/);
    expect(() => loadWith({ ...complete, CURSOR_SECRET: '' })).toThrow(/^CURSOR_SECRET: is required/);
    expect(() => loadWith({ ...complete, BLOB_URL_SECRET: undefined })).toThrow(/^BLOB_URL_SECRET: is required/);
    expect(() => loadWith({ ...complete, BLOB_URL_SECRET: 'dev-blob-secret-change-me' })).toThrow(
      'BLOB_URL_SECRET: must be at least 32 characters',
    );
    expect(() => loadWith({ ...complete, INTEGRATION_SECRETS_KEY: undefined })).toThrow(
      /^INTEGRATION_SECRETS_KEY: is required/,
    );
    expect(() => loadWith({ ...complete, INTEGRATION_SECRETS_KEY: 'short' })).toThrow(
      'INTEGRATION_SECRETS_KEY: must be at least 32 characters',
    );
  });

  it('need BLOB_URL_SECRET only for the local blob store, and the S3 keys only for S3', () => {
    const s3 = {
      ...complete,
      BLOB_STORE: 's3',
      BLOB_URL_SECRET: undefined,
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadWith(s3).blobs.urlSecret).toBe('');
    expect(() => loadWith({ ...s3, S3_ACCESS_KEY_ID: undefined })).toThrow(/^S3_ACCESS_KEY_ID: is required/);
    expect(() => loadWith({ ...s3, S3_SECRET_ACCESS_KEY: undefined })).toThrow(/^S3_SECRET_ACCESS_KEY: is required/);
    expect(
      loadWith({ ...complete, S3_ACCESS_KEY_ID: undefined, S3_SECRET_ACCESS_KEY: undefined }).blobs.s3.accessKeyId,
    ).toBe('');
  });

  it('are not needed by the database settings the CLI and the migrations read', () => {
    const saved = process.env.CURSOR_SECRET;
    delete process.env.CURSOR_SECRET;
    try {
      expect(loadDatabaseConfig().mysql.port).toBe(loadWith(complete).mysql.port);
    } finally {
      process.env.CURSOR_SECRET = saved;
    }
  });

  // the built entry points (npm test compiles them first)
  it.each([
    ['api', 'dist/api/server.js'],
    ['worker', 'dist/worker/main.js'],
  ])('stop the %s at start-up when missing, saying why in a JSON record', (name, entry) => {
    const env = { ...process.env, CURSOR_SECRET: '' };
    const run = spawnSync(process.execPath, [path.join(ROOT, entry)], { env, encoding: 'utf8', timeout: 20000 });
    expect(run.status).toBe(1);
    // one JSON record on stdout, as every other line of its log: a log collector keeps the reason
    const record = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(record).toMatchObject({ level: 60, service: name, msg: expect.stringContaining(`${name} failed`) });
    expect(record.err.message).toContain('CURSOR_SECRET: is required');
    expect(run.stderr).toBe('');
  });
});

describe('TRUST_PROXY', () => {
  const complete = { CURSOR_SECRET: SECRET, BLOB_URL_SECRET: SECRET, INTEGRATION_SECRETS_KEY: SECRET };

  it("takes Express's values: none by default, a hop count, or addresses, CIDR ranges and Express's range names", () => {
    expect(loadWith({ ...complete, TRUST_PROXY: undefined }).trustProxy).toBe(false);
    expect(loadWith({ ...complete, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadWith({ ...complete, TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::/32, 192.0.2.1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '2001:db8::/32',
      '192.0.2.1',
    ]);
  });

  it('refuses anything else, true (every hop) included, naming the variable', () => {
    for (const wrong of ['true', '10.0.0.0/33', 'proxy.example', 'loopback,'])
      expect(() => loadWith({ ...complete, TRUST_PROXY: wrong })).toThrow(/^TRUST_PROXY: must be a hop count or/);
  });
});

describe('FETCH_ALLOW_DESTINATIONS (the development stack names its demo servers)', () => {
  const complete = { CURSOR_SECRET: SECRET, BLOB_URL_SECRET: SECRET, INTEGRATION_SECRETS_KEY: SECRET };

  it('is empty by default, and takes IPv4 and bracketed IPv6 addresses with a port', () => {
    expect(loadWith({ ...complete, FETCH_ALLOW_DESTINATIONS: undefined }).fetch.allowDestinations).toEqual([]);
    expect(
      loadWith({ ...complete, FETCH_ALLOW_DESTINATIONS: '127.0.0.1:8765, [::1]:8766' }).fetch.allowDestinations,
    ).toEqual([
      { address: '127.0.0.1', port: 8765 },
      { address: '0:0:0:0:0:0:0:1', port: 8766 },
    ]);
  });

  it('refuses a name, a missing or impossible port and an unbracketed IPv6 address, naming the variable', () => {
    for (const wrong of ['localhost:8765', '127.0.0.1', '127.0.0.1:0', '127.0.0.1:70000', '::1:8765', '127.0.0.1:*'])
      expect(() => loadWith({ ...complete, FETCH_ALLOW_DESTINATIONS: wrong })).toThrow(
        /^FETCH_ALLOW_DESTINATIONS: each entry must be an IP address and a port/,
      );
  });
});
