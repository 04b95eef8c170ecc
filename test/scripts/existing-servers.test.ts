/**
 * `npm start` against servers it did not start: an unreachable one stops it at once with a message
 * naming the variables; a database is created when the user may and explained when not; the search
 * attributes are registered on a namespace, or the missing namespace is explained.
 */

import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { spawnSync } from 'child_process';
import { createConnection } from 'mysql2/promise';
import * as path from 'path';
import { registerSearchAttributes, SearchAttributesError } from '../../domain/jobs/search-attributes';
import { loadDatabaseConfig, loadTemporalConfig } from '../../platform/config';
import { ensureDatabase, explain } from '../../platform/db/create-database';
import { unique } from '../factories';

const ROOT = path.resolve(__dirname, '../..');

/** Runs scripts/start.sh with `env` on top of this environment. */
function start(env: Record<string, string>) {
  const began = Date.now();
  const run = spawnSync('bash', ['scripts/start.sh'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, ms: Date.now() - began };
}

describe('npm start with a server that does not answer', () => {
  // names under .invalid never resolve (RFC 2606), so nothing leaves this machine
  it('stops before installing anything when MYSQL_HOST is unreachable', () => {
    const run = start({ MYSQL_HOST: 'mysql.invalid', MYSQL_PORT: '3306' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('ERROR: MySQL at mysql.invalid:3306 is not reachable (from MYSQL_HOST, MYSQL_PORT)');
    expect(run.stderr).not.toMatch(/installing|starting/);
    expect(run.stdout).toBe('');
    expect(run.ms).toBeLessThan(15_000);
  });

  it('stops when TEMPORAL_ADDRESS is unreachable', () => {
    const run = start({ TEMPORAL_ADDRESS: 'temporal.invalid:7233' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('ERROR: Temporal at temporal.invalid:7233 is not reachable (from TEMPORAL_ADDRESS)');
    expect(run.stderr).not.toMatch(/installing|starting/);
  });
});

describe('creating the database on an existing MySQL', () => {
  const { mysql } = loadDatabaseConfig();

  it('leaves an existing database alone', async () => {
    await expect(ensureDatabase(mysql)).resolves.toBe('exists');
  });

  it('creates a missing one when the user may', async () => {
    // the scripts' MariaDB has a password-less root on 127.0.0.1, a user allowed to create databases
    const admin = { ...mysql, user: 'root', password: '', database: unique('docs_created_').replace(/[^\w]/g, '_') };
    try {
      await expect(ensureDatabase(admin)).resolves.toBe('created');
      await expect(ensureDatabase(admin)).resolves.toBe('exists');
    } finally {
      const connection = await createConnection({ host: admin.host, port: admin.port, user: 'root', password: '' });
      await connection.query(`DROP DATABASE IF EXISTS \`${admin.database}\``);
      await connection.end();
    }
  });

  it('says what an administrator must run when the user may not create it', async () => {
    const denied = { ...mysql, database: 'docs_not_granted' };
    const failure = await ensureDatabase(denied).then(
      () => null,
      (err: unknown) => err,
    );
    expect(explain(denied, failure)).toBe(
      [
        `database docs_not_granted (MYSQL_DATABASE) is missing or closed to ${mysql.user}, who may not create it (${(failure as Error).message}).`,
        'Ask an administrator of the server to run:',
        '  CREATE DATABASE IF NOT EXISTS `docs_not_granted` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;',
        `  GRANT ALL PRIVILEGES ON \`docs_not_granted\`.* TO '${mysql.user}'@'%';`,
      ].join('\n'),
    );
  });

  it('names the variables when the server refuses the user', async () => {
    const refused = { ...mysql, password: 'wrong password' };
    const failure = await ensureDatabase(refused).then(
      () => null,
      (err: unknown) => err,
    );
    expect(explain(refused, failure)).toMatch(
      new RegExp(
        `^MySQL at ${mysql.host}:${mysql.port} \\(MYSQL_HOST, MYSQL_PORT\\) refused user ${mysql.user} \\(MYSQL_USER, MYSQL_PASSWORD\\)`,
      ),
    );
  });
});

describe('registering the search attributes on a namespace', () => {
  const { address } = loadTemporalConfig().temporal;
  let connection: Connection;
  beforeAll(async () => {
    connection = await Connection.connect({ address });
  });
  afterAll(async () => {
    await connection.close();
  });

  it('registers the missing ones once', async () => {
    const namespace = unique('prepare-test-');
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs('1 day'),
    });
    try {
      await expect(registerSearchAttributes(connection, address, namespace)).resolves.toEqual([
        'OrganizationId',
        'SpaceId',
        'ResourceId',
      ]);
      await expect(registerSearchAttributes(connection, address, namespace)).resolves.toEqual([]);
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      expect(Object.keys(customAttributes ?? {})).toEqual(
        expect.arrayContaining(['OrganizationId', 'SpaceId', 'ResourceId']),
      );
    } finally {
      await connection.operatorService.deleteNamespace({ namespace });
    }
  });

  it('explains a namespace that does not exist', async () => {
    const attempt = registerSearchAttributes(connection, address, 'no-such-namespace');
    await expect(attempt).rejects.toBeInstanceOf(SearchAttributesError);
    await expect(attempt).rejects.toThrow(
      `Temporal namespace no-such-namespace (TEMPORAL_NAMESPACE) does not exist on ${address}: create it, e.g.\n  temporal operator namespace create --address ${address} --namespace no-such-namespace`,
    );
  });
});
