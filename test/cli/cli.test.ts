/**
 * The operator CLI as scripts run it (the compiled dist/cli/main.js): ids beginning with "-" as
 * printed, --json on every command, the documented exit codes, and --help everywhere.
 */
import { execFile } from 'child_process';
import * as path from 'path';
import { Member } from '../../entities/Member';
import { Organization } from '../../entities/Organization';
import { inTransaction } from '../../platform/db/transactions';
import { createOrg } from '../factories';
import { useServer } from '../support/server';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
const server = useServer();

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile('node', [CLI, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
    );
  });
}

/** An organization as one made before ids began with a letter or digit: its id begins with "-". */
async function organizationWithDashId(): Promise<string> {
  const { org } = await createOrg(server.ds);
  const id = `-${org.id.slice(2)}`;
  await inTransaction(server.ds, async (db) => {
    await db.update(Organization, { id: org.id }, { id });
    await db.update(Member, { organizationId: org.id }, { organizationId: id });
  });
  return id;
}

const email = () => `cli-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;

describe('ids beginning with "-"', () => {
  it('user add takes such an organization id after --org and in --org=…', async () => {
    const orgId = await organizationWithDashId();
    for (const args of [['--org', orgId], [`--org=${orgId}`]]) {
      const added = await cli(['user', 'add', ...args, '--email', email(), '--role', 'edit', '--json']);
      expect(added).toMatchObject({ code: 0, stderr: '' });
      const { userId, token } = JSON.parse(added.stdout);
      expect(token).toMatch(/^dpt_/);
      expect(await server.ds.manager.findOneBy(Member, { organizationId: orgId, userId })).toMatchObject({
        role: 'edit',
      });
    }
  });

  it('jobs watch and jobs list take such ids too', async () => {
    const orgId = await organizationWithDashId();
    const watched = await cli(['jobs', 'watch', '-noSuchResource00000', '--json']);
    expect(watched.code).toBe(3);
    expect(JSON.parse(watched.stderr)).toEqual({
      error: {
        exit: 3,
        code: 'notFound',
        message: 'no job was asked for on -noSuchResource00000, nor on anything it names',
      },
    });
    const listed = await cli(['jobs', 'list', '--org', orgId, '--json']);
    expect(listed).toMatchObject({ code: 0 });
    expect(JSON.parse(listed.stdout)).toEqual({ jobs: [] });
  });

  it('new organization ids begin with a letter or digit', async () => {
    const booted = await cli(['bootstrap', '--email', email(), '--org', 'Dash test', '--json']);
    expect(booted.code).toBe(0);
    expect(JSON.parse(booted.stdout).organizationId).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{20}$/);
  });
});

describe('output', () => {
  it('prints text by default and one JSON line with --json', async () => {
    const address = email();
    const text = await cli(['bootstrap', '--email', address, '--org', 'Output test']);
    expect(text.code).toBe(0);
    const fields = Object.fromEntries(
      text.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)),
    );
    expect(Object.keys(fields)).toEqual(['userId', 'organizationId', 'token']);

    const json = await cli(['bootstrap', '--email', address, '--org', 'Output test', '--json']);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    // the same organization, reused; a new token
    expect(JSON.parse(json.stdout)).toMatchObject({
      userId: fields.userId,
      organizationId: fields.organizationId,
      token: expect.stringMatching(/^dpt_/),
    });
    expect(JSON.parse(json.stdout).token).not.toBe(fields.token);

    const revoked = await cli(['token', 'revoke', fields.token, '--json']);
    expect([revoked.code, JSON.parse(revoked.stdout)]).toEqual([0, { revoked: true }]);
    const again = await cli(['token', 'revoke', fields.token]);
    expect([again.code, again.stdout.trim()]).toEqual([0, 'nothing revoked: the token is unknown or already revoked']);
  });
});

describe('exit codes', () => {
  it('2 for usage errors, with the error as JSON under --json', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['frobnicate'], /unknown command 'frobnicate'/],
      [
        ['user', 'add', '--email', 'a@example.test', '--role', 'edit'],
        /required option '--org <organizationId>' not specified/,
      ],
      [['user', 'add', '--org', 'x', '--email', 'a@example.test', '--role', 'boss'], /argument 'boss' is invalid/],
      [['jobs', 'list', '--state', 'sleeping'], /argument 'sleeping' is invalid/],
      [['jobs', 'list', '--colour'], /unknown option '--colour'/],
      [['bootstrap', '--email', 'a@example.test', '--org', 'x'], /--org: must be 2..255 characters/],
    ];
    for (const [args, message] of cases) {
      const text = await cli(args);
      expect([text.code, text.stdout]).toEqual([2, '']);
      expect(text.stderr).toMatch(message);
      expect(text.stderr).toMatch(/add --help for usage/);
      const json = await cli([...args, '--json']);
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stderr)).toEqual({
        error: { exit: 2, code: 'usage', message: expect.stringMatching(message) },
      });
    }
  });

  it('3 for an organization that does not exist', async () => {
    const missing = await cli(['user', 'add', '--org', 'noSuchOrganization01', '--email', email(), '--role', 'read']);
    expect(missing).toMatchObject({
      code: 3,
      stdout: '',
      stderr: 'error: --org: organization noSuchOrganization01 not found\n',
    });
  });

  it('4 when the database settings are invalid or the database cannot be reached', async () => {
    const refused = await cli(['jobs', 'list', '--json'], { MYSQL_HOST: '127.0.0.1', MYSQL_PORT: '1' });
    expect(refused.code).toBe(4);
    expect(JSON.parse(refused.stderr).error).toMatchObject({
      exit: 4,
      code: 'unavailable',
      message: expect.stringMatching(/^database: .*ECONNREFUSED/),
    });
    const invalid = await cli(['jobs', 'list'], { MYSQL_PORT: 'many' });
    expect(invalid).toMatchObject({
      code: 4,
      stderr: expect.stringMatching(/MYSQL_PORT: must be a non-negative integer/),
    });
  });
});

describe('--help', () => {
  it('prints the usage of the CLI and of every command, with exit code 0', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/^Usage: cli \[options\] \[command\]/);
    expect(top.stdout).toMatch(/Exit codes:\n\s+0\s+success/);
    const commands: Array<[string[], RegExp]> = [
      [['bootstrap'], /Usage: cli bootstrap \[options\][\s\S]*--email <email>[\s\S]*--org <title>[\s\S]*--json/],
      [
        ['user', 'add'],
        /Usage: cli user add \[options\][\s\S]*--org <organizationId>[\s\S]*--role <role>[\s\S]*--json/,
      ],
      [['token', 'revoke'], /Usage: cli token revoke \[options\] <token>[\s\S]*--json/],
      [['jobs', 'list'], /Usage: cli jobs list \[options\][\s\S]*--kind <kind>[\s\S]*--state <state>[\s\S]*--json/],
      [['jobs', 'watch'], /Usage: cli jobs watch \[options\] <id>[\s\S]*--json/],
      [['user'], /Usage: cli user \[options\] \[command\][\s\S]*add \[options\]/],
      [['jobs'], /Usage: cli jobs \[options\] \[command\][\s\S]*list \[options\][\s\S]*watch \[options\] <id>/],
    ];
    for (const [command, usage] of commands) {
      const help = await cli([...command, '--help']);
      expect([help.code, help.stderr]).toEqual([0, '']);
      expect(help.stdout).toMatch(usage);
    }
  });
});
