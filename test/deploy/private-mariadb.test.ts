/**
 * Production settings on a second MariaDB of this test's own, which requires TLS (test/support/private-mariadb.ts):
 * TLS towards MySQL; the migrations' named lock, on its empty database; and `cli secrets rotate`, which
 * rewrites every integration's secrets and so cannot run on the shared test database.
 */
import { execFile } from 'child_process';
import * as path from 'path';
import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { encryptSecrets, openSecrets } from '../../domain/integrations/secrets';
import { Integration } from '../../entities/Integration';
import { type DatabaseConfig, loadDatabaseConfig } from '../../platform/config';
import { ensureDatabase, explain } from '../../platform/db/create-database';
import { createDataSource } from '../../platform/db/data-source';
import { runMigrationsLocked } from '../../platform/db/run-migrations';
import { createOrg } from '../factories';
import { withEnv } from '../support/env';
import { insertIntegration } from '../support/integration-rows';
import { type PrivateMariadb, startPrivateMariadb } from '../support/private-mariadb';

let server: PrivateMariadb;

beforeAll(async () => {
  server = await startPrivateMariadb();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const TLS_VARIABLES = ['MYSQL_TLS', 'MYSQL_TLS_VERIFY_SERVER'].concat(
  ...['MYSQL_TLS_CA', 'MYSQL_TLS_CERT', 'MYSQL_TLS_KEY'].map((name) => [name, `${name}_FILE`]),
);

/** The database settings under `env` (the private server's address and user, no TLS setting unless given). */
function databaseConfig(env: Record<string, string> = {}): DatabaseConfig {
  const saved = { ...process.env };
  for (const name of TLS_VARIABLES) delete process.env[name];
  Object.assign(process.env, {
    MYSQL_HOST: '127.0.0.1',
    MYSQL_PORT: String(server.port),
    MYSQL_USER: server.user,
    MYSQL_PASSWORD: server.password,
    MYSQL_DATABASE: server.database,
    MYSQL_POOL_SIZE: '4',
    ...env,
  });
  try {
    return loadDatabaseConfig();
  } finally {
    process.env = saved;
  }
}

/** The CA, the client certificate and its key, each from a file. */
const withCertificates = () => ({
  MYSQL_TLS_CA_FILE: server.files.ca,
  MYSQL_TLS_CERT_FILE: server.files.clientCert,
  MYSQL_TLS_KEY_FILE: server.files.clientKey,
});

async function tlsVersionOver(config: DatabaseConfig): Promise<string> {
  const ds = await createDataSource(config).initialize();
  try {
    const [row] = await ds.query("SHOW SESSION STATUS LIKE 'Ssl_version'");
    return row.Value;
  } finally {
    await ds.destroy();
  }
}

describe('MySQL over TLS', () => {
  it('connects with the CA, the client certificate and its key (each read from a *_FILE), and verifies the server', async () => {
    const config = databaseConfig(withCertificates());
    expect(config.mysql.tls).toMatchObject({ verifyServer: true });
    expect(await tlsVersionOver(config)).toMatch(/^TLSv1\.[23]$/);
  });

  it('to a server that requires TLS, a plain connection fails naming MYSQL_TLS', async () => {
    // a user the server asks no certificate of: the server refuses the plain connection itself
    server.sql(`CREATE USER IF NOT EXISTS 'docs_any'@'127.0.0.1' IDENTIFIED BY 'any-password';
CREATE USER IF NOT EXISTS 'docs_any'@'localhost' IDENTIFIED BY 'any-password';
GRANT ALL PRIVILEGES ON ${server.database}.* TO 'docs_any'@'127.0.0.1';
GRANT ALL PRIVILEGES ON ${server.database}.* TO 'docs_any'@'localhost';`);
    const plain = databaseConfig({ MYSQL_USER: 'docs_any', MYSQL_PASSWORD: 'any-password' });
    // MariaDB says no more than "Access denied" (MySQL 8 says it requires TLS)
    await expect(createDataSource(plain).initialize()).rejects.toThrow(
      `MySQL at 127.0.0.1:${server.port}: Access denied for user 'docs_any'`,
    );
    await expect(createDataSource(plain).initialize()).rejects.toThrow(
      /set MYSQL_TLS=true if the server requires TLS$/,
    );
    const tls = databaseConfig({
      MYSQL_USER: 'docs_any',
      MYSQL_PASSWORD: 'any-password',
      MYSQL_TLS_CA_FILE: server.files.ca,
    });
    expect(await tlsVersionOver(tls)).toMatch(/^TLSv1\.[23]$/);
  });

  it('with a CA that did not sign the server certificate, fails naming MYSQL_TLS_CA', async () => {
    const config = databaseConfig({ ...withCertificates(), MYSQL_TLS_CA_FILE: server.files.otherCa });
    const failure = createDataSource(config).initialize();
    await expect(failure).rejects.toThrow(`MySQL at 127.0.0.1:${server.port}: its TLS certificate is not trusted`);
    await expect(createDataSource(config).initialize()).rejects.toThrow(/set MYSQL_TLS_CA \(or MYSQL_TLS_CA_FILE\)/);
  });

  it('checks the host name unless MYSQL_TLS_VERIFY_SERVER=false', async () => {
    // the certificate names 127.0.0.1 only
    const byName = databaseConfig({ ...withCertificates(), MYSQL_HOST: 'localhost' });
    await expect(createDataSource(byName).initialize()).rejects.toThrow(
      /its TLS certificate does not name localhost .*MYSQL_TLS_VERIFY_SERVER=false/,
    );
    const unverified = databaseConfig({
      ...withCertificates(),
      MYSQL_HOST: 'localhost',
      MYSQL_TLS_VERIFY_SERVER: 'false',
    });
    expect(await tlsVersionOver(unverified)).toMatch(/^TLSv1\.[23]$/);
  });

  it('to a server that offers no TLS (the shared test server), fails naming the TLS settings to unset', async () => {
    const shared = withEnv({ MYSQL_TLS: 'true' }, loadDatabaseConfig);
    await expect(createDataSource(shared).initialize()).rejects.toThrow(
      `MySQL at ${shared.mysql.host}:${shared.mysql.port} does not offer TLS; enable TLS on the server, or unset MYSQL_TLS`,
    );
  });

  it("npm start's check of an existing server's database connects with the same TLS settings", async () => {
    expect(await ensureDatabase(databaseConfig(withCertificates()).mysql)).toBe('exists');
    const wrongCa = databaseConfig({ ...withCertificates(), MYSQL_TLS_CA_FILE: server.files.otherCa }).mysql;
    const failure = await ensureDatabase(wrongCa).catch((err: unknown) => explain(wrongCa, err));
    expect(failure).toMatch(/its TLS certificate is not trusted .*set MYSQL_TLS_CA/);
  });

  it('sends the client certificate: without it the server refuses the user that requires one', async () => {
    const config = databaseConfig({ MYSQL_TLS_CA_FILE: server.files.ca });
    await expect(createDataSource(config).initialize()).rejects.toThrow(/Access denied for user 'docs_tls'/);
  });
});

describe('migrations under a named lock', () => {
  it('two runs started together apply each migration once', async () => {
    const config = databaseConfig(withCertificates());
    const [a, b] = await Promise.all([createDataSource(config).initialize(), createDataSource(config).initialize()]);
    try {
      const runs = await Promise.all([runMigrationsLocked(a), runMigrationsLocked(b)]);
      expect(runs.map((applied) => applied.length).sort((x, y) => x - y)).toEqual([0, a.migrations.length]);
      const rows: Array<{ name: string }> = await a.query('SELECT name FROM migrations');
      expect(rows.map((r) => r.name).sort()).toEqual(a.migrations.map((m) => m.name).sort());
      expect(await runMigrationsLocked(b)).toEqual([]);
    } finally {
      await Promise.all([a.destroy(), b.destroy()]);
    }
  }, 120_000);
});

describe('cli secrets rotate', () => {
  const CLI = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
  const [NEW, OLD, LOST] = ['n', 'o', 'l'].map((c) => c.repeat(40));
  const ring = (...keys: string[]) => ({ integrations: { secretsKeys: keys } });
  let ds: DataSource;

  /** The CLI as an operator runs it: the private server over TLS, the key ring given. */
  function rotate(keys: string): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = {
      ...process.env,
      MYSQL_HOST: '127.0.0.1',
      MYSQL_PORT: String(server.port),
      MYSQL_USER: server.user,
      MYSQL_PASSWORD: server.password,
      MYSQL_DATABASE: server.database,
      ...withCertificates(),
      INTEGRATION_SECRETS_KEY: keys,
    };
    return new Promise((resolve) => {
      execFile('node', [CLI, 'secrets', 'rotate', '--json'], { env }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
      );
    });
  }

  const stored = async (id: string) => (await ds.manager.findOneByOrFail(Integration, { id })).secretsCiphertext;

  beforeAll(async () => {
    ds = await createDataSource(databaseConfig(withCertificates())).initialize();
    await runMigrationsLocked(ds);
  });
  afterAll(() => ds?.destroy());

  it('re-encrypts under the first key what older keys wrote, and fails naming the rows no key opens', async () => {
    const { org } = await createOrg(ds);
    const withSecrets = async (keys: string[]) => {
      const integration = await insertIntegration(ds, org.id, []);
      const secretsCiphertext = encryptSecrets(ring(...keys), integration.id, { API_KEY: `of ${integration.id}` });
      await ds.manager.update(Integration, { id: integration.id }, { secretsCiphertext });
      return integration.id;
    };
    const byOld = await withSecrets([OLD]);
    const byNew = await withSecrets([NEW]);
    const byLost = await withSecrets([LOST]);
    const newBefore = await stored(byNew);

    const first = await rotate(`${NEW},${OLD}`);
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stderr).error.message).toBe(
      `no key of INTEGRATION_SECRETS_KEY opens the secrets of 1 integration(s): ${byLost} (re-encrypted 1, already current 1); add the key they were written with to the ring and run again`,
    );
    // the new key alone now opens what the old one wrote; what was current is untouched
    expect(openSecrets(ring(NEW), { id: byOld, secretsCiphertext: await stored(byOld) })).toEqual({
      secrets: { API_KEY: `of ${byOld}` },
      keyIndex: 0,
    });
    expect(await stored(byNew)).toBe(newBefore);

    await ds.manager.update(Integration, { id: byLost }, { secretsCiphertext: null });
    const second = await rotate(`${NEW}\n${OLD}`);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(second.stdout)).toEqual({ reencrypted: 0, current: 2, unreadable: [] });
  }, 60_000);

  it('exits 4 naming INTEGRATION_SECRETS_KEY when the ring is missing or short', async () => {
    const missing = await rotate('');
    expect(missing.code).toBe(4);
    expect(JSON.parse(missing.stderr).error.message).toMatch(/^INTEGRATION_SECRETS_KEY: is required/);
    expect((await rotate(`${NEW},short`)).code).toBe(4);
  });
});
