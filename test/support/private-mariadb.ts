/**
 * A second MariaDB of its own for a test: a temporary folder, a free port, TLS required, with a CA, a
 * server certificate (for 127.0.0.1 only) and a client certificate made here with openssl
 * (and a CA that signed nothing of it, to be refused). The binaries are the ones scripts/lib.sh starts.
 */
import { ChildProcess, execFileSync, spawn } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { createServer, Socket } from 'net';
import { tmpdir } from 'os';
import * as path from 'path';

export interface PrivateMariadb {
  port: number;
  /** PEM files: the CA of the server's and the client's certificates, the client's pair, an unrelated CA. */
  files: { ca: string; clientCert: string; clientKey: string; otherCa: string };
  /** A user that must present a client certificate signed by the CA (REQUIRE X509), with all rights on `database`. */
  user: string;
  password: string;
  database: string;
  /** Runs SQL as root over the server's socket. */
  sql(statements: string): void;
  stop(): Promise<void>;
}

const MARIADBD = '/usr/sbin/mariadbd';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, log: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mariadbd exited (${child.exitCode}); see ${log}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    }).catch(() => false);
    if (open) return;
    if (Date.now() > deadline) throw new Error(`mariadbd did not open port ${port} within ${ms} ms; see ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A CA, and certificates it signs (EC keys: quick to make). */
function makeCertificates(dir: string) {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const ca = (name: string) =>
    openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      file(`${name}.key`),
      '-out',
      file(`${name}.pem`),
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
    );
  const signed = (name: string, subjectAltName: string) => {
    openssl('req', ...ec, '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', `/CN=${name}`);
    writeFileSync(file(`${name}.ext`), `subjectAltName=${subjectAltName}\n`);
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file(`${name}.pem`),
      '-days',
      '2',
      '-extfile',
      file(`${name}.ext`),
    );
  };
  ca('ca');
  ca('other-ca');
  signed('server', 'IP:127.0.0.1'); // not `localhost`: connecting by that name must fail the host name check
  signed('client', 'DNS:docs-client');
  return {
    ca: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server.key'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
    otherCa: file('other-ca.pem'),
  };
}

export async function startPrivateMariadb(): Promise<PrivateMariadb> {
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-mariadb-'));
  const data = path.join(dir, 'data');
  const socket = path.join(dir, 'mysql.sock');
  const log = path.join(dir, 'mariadb.log');
  const user = execFileSync('id', ['-un'], { encoding: 'utf8' }).trim();
  const certs = makeCertificates(dir);
  execFileSync(
    'mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      `--user=${user}`,
    ],
    { stdio: 'pipe' },
  );
  const port = await freePort();
  const child = spawn(
    MARIADBD,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${socket}`,
      `--pid-file=${path.join(dir, 'mysql.pid')}`,
      `--user=${user}`,
      `--log-error=${log}`,
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_unicode_ci',
      '--innodb-buffer-pool-size=32M',
      `--ssl-ca=${certs.ca}`,
      `--ssl-cert=${certs.serverCert}`,
      `--ssl-key=${certs.serverKey}`,
      '--require-secure-transport=ON',
    ],
    { stdio: 'ignore' },
  );
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, child, log, 30_000);
    const sql = (statements: string) =>
      execFileSync('mariadb', ['--no-defaults', '--protocol=SOCKET', `--socket=${socket}`, '-uroot'], {
        input: statements,
        stdio: ['pipe', 'pipe', 'pipe'],
        // the test's own MYSQL_* would point the client at the shared server
        env: { PATH: process.env.PATH },
      });
    const db = { user: 'docs_tls', password: 'tls-password', database: 'docs_tls' };
    sql(`CREATE DATABASE ${db.database} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER '${db.user}'@'127.0.0.1' IDENTIFIED BY '${db.password}' REQUIRE X509;
GRANT ALL PRIVILEGES ON ${db.database}.* TO '${db.user}'@'127.0.0.1';`);
    return {
      port,
      files: { ca: certs.ca, clientCert: certs.clientCert, clientKey: certs.clientKey, otherCa: certs.otherCa },
      ...db,
      sql,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
