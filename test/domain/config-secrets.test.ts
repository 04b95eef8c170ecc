/** Settings read from *_FILE, TLS settings, and INTEGRATION_SECRETS_KEY as a key ring. */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { loadConfig, loadDatabaseConfig, loadTemporalConfig } from '../../platform/config';
import { withEnv } from '../support/env';

const SECRET = 'x'.repeat(32);
const complete = {
  CURSOR_SECRET: SECRET,
  BLOB_URL_SECRET: SECRET,
  INTEGRATION_SECRETS_KEY: SECRET,
  BLOB_STORE: 'local',
};
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

let dir: string;
const file = (name: string, content: string) => {
  const at = path.join(dir, name);
  writeFileSync(at, content);
  return at;
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'docs-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('*_FILE', () => {
  it('reads any setting from the file NAME_FILE names, without its trailing newline', () => {
    const config = withEnv(
      {
        ...complete,
        CURSOR_SECRET: undefined,
        CURSOR_SECRET_FILE: file('cursor', `${'c'.repeat(40)}\n`),
        MYSQL_PASSWORD: undefined,
        MYSQL_PASSWORD_FILE: file('password', 'pa ss\r\n'),
      },
      loadConfig,
    );
    expect(config.cursorSecret).toBe('c'.repeat(40));
    expect(config.mysql.password).toBe('pa ss');
  });

  it('refuses a variable and its file together, and a file it cannot read, naming them', () => {
    expect(() => withEnv({ ...complete, CURSOR_SECRET_FILE: file('c2', 'y'.repeat(40)) }, loadConfig)).toThrow(
      'CURSOR_SECRET and CURSOR_SECRET_FILE: set one of them, not both',
    );
    expect(() =>
      withEnv({ MYSQL_PASSWORD: undefined, MYSQL_PASSWORD_FILE: path.join(dir, 'missing') }, loadDatabaseConfig),
    ).toThrow(`MYSQL_PASSWORD_FILE: cannot read ${path.join(dir, 'missing')} (ENOENT)`);
  });
});

describe('INTEGRATION_SECRETS_KEY as a key ring', () => {
  it('takes keys separated by commas or new lines, the first first', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((k) => k.repeat(32));
    expect(
      withEnv({ ...complete, INTEGRATION_SECRETS_KEY: `${a}, ${b}` }, loadConfig).integrations.secretsKeys,
    ).toEqual([a, b]);
    const ring = file('ring', `${c}\n${a}\n`);
    expect(
      withEnv({ ...complete, INTEGRATION_SECRETS_KEY: undefined, INTEGRATION_SECRETS_KEY_FILE: ring }, loadConfig)
        .integrations.secretsKeys,
    ).toEqual([c, a]);
  });

  it('refuses a short key anywhere in the ring', () => {
    expect(() => withEnv({ ...complete, INTEGRATION_SECRETS_KEY: `${SECRET},short` }, loadConfig)).toThrow(
      'INTEGRATION_SECRETS_KEY: must be at least 32 characters (key 2 of 2)',
    );
  });
});

describe('TLS settings', () => {
  const none = Object.fromEntries(
    [
      'MYSQL_TLS',
      'MYSQL_TLS_CA',
      'MYSQL_TLS_CERT',
      'MYSQL_TLS_KEY',
      'TEMPORAL_TLS',
      'TEMPORAL_TLS_CA',
      'TEMPORAL_TLS_CERT',
    ]
      .concat(['TEMPORAL_TLS_KEY', 'TEMPORAL_TLS_SERVER_NAME', 'TEMPORAL_API_KEY'])
      .flatMap((name) => [
        [name, undefined],
        [`${name}_FILE`, undefined],
      ]),
  );

  it('are off unless asked for', () => {
    expect(withEnv(none, loadDatabaseConfig).mysql.tls).toBeNull();
    expect(withEnv(none, loadTemporalConfig).temporal.tls).toBeNull();
  });

  it('turn on with MYSQL_TLS or any certificate, verifying the server unless told not to', () => {
    expect(withEnv({ ...none, MYSQL_TLS: 'true' }, loadDatabaseConfig).mysql.tls).toEqual({
      ca: '',
      cert: '',
      key: '',
      verifyServer: true,
    });
    expect(
      withEnv({ ...none, MYSQL_TLS_CA_FILE: file('ca.pem', PEM), MYSQL_TLS_VERIFY_SERVER: 'false' }, loadDatabaseConfig)
        .mysql.tls,
    ).toEqual({ ca: PEM.trimEnd(), cert: '', key: '', verifyServer: false });
  });

  it('refuse a certificate without its key, a path where PEM text belongs, and a switch that is not true or false', () => {
    expect(() => withEnv({ ...none, MYSQL_TLS_CERT: PEM }, loadDatabaseConfig)).toThrow(
      'MYSQL_TLS_CERT and MYSQL_TLS_KEY: set both (a client certificate and its key) or neither',
    );
    expect(() => withEnv({ ...none, TEMPORAL_TLS_CA: '/etc/ssl/ca.pem' }, loadTemporalConfig)).toThrow(
      'TEMPORAL_TLS_CA: must be PEM text (-----BEGIN …); to name a file, set TEMPORAL_TLS_CA_FILE',
    );
    expect(() => withEnv({ ...none, MYSQL_TLS: 'true', MYSQL_TLS_VERIFY_SERVER: 'no' }, loadDatabaseConfig)).toThrow(
      'MYSQL_TLS_VERIFY_SERVER: must be true or false, got "no"',
    );
    expect(() => withEnv({ ...none, TEMPORAL_TLS: 'yes' }, loadTemporalConfig)).toThrow(
      'TEMPORAL_TLS: must be true or false, got "yes"',
    );
  });
});
