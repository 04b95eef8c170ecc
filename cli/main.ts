/**
 * Operator CLI, for people and scripts (docs/cli.md). Each command prints its result as text, or as
 * one JSON line with `--json`; a failure goes to stderr with a documented exit code (cli/output.ts).
 * Options that take a value take the next argument whatever it begins with, so an id printed as
 * `-x…` works after `--org` (commander's options with a required value); so does `--org=-x…`.
 */
import 'reflect-metadata';
import { Command, CommanderError, Option } from 'commander';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { ROLES, Role } from '../domain/access/roles';
import { issueToken, revokeBySecret } from '../domain/auth/tokens';
import { LISTED_STATUSES } from '../domain/jobs/job-queries';
import { JOB_KINDS } from '../domain/jobs/kinds';
import { addOrUpdateMember } from '../domain/organizations/membership';
import { createOrganization } from '../domain/organizations/organizations';
import { ensureUser } from '../domain/users/users';
import { Member } from '../entities/Member';
import { Organization } from '../entities/Organization';
import { loadDatabaseConfig, loadJobsConfig, loadPublicBaseUrl, loadTemporalConfig } from '../platform/config';
import { createDataSource } from '../platform/db/data-source';
import { inTransaction, type WorkSource } from '../platform/db/transactions';
import { TemporalGateway } from '../platform/temporal/gateway';
import { cancelJobCommand, jobsText, ListedStatus, listJobsCommand, retryJobCommand, watchJobCommand } from './jobs';
import { CliError, EXIT, fieldsText, writeError, writeResult } from './output';
import { rotateSecretsCommand, rotationText, secretsKeyRing } from './secrets';

const EXIT_CODES_HELP = `
Exit codes:
  ${EXIT.ok}  success
  ${EXIT.error}  unexpected error (e.g. the database failed in the middle of a command); secrets rotate:
     no key of INTEGRATION_SECRETS_KEY opens some integration's secrets
  ${EXIT.usage}  usage: unknown command or option, missing or invalid argument
  ${EXIT.notFound}  not found: the organization or job named does not exist
  ${EXIT.unavailable}  unavailable: invalid database settings (for secrets rotate, INTEGRATION_SECRETS_KEY), or
     the database (or, for jobs retry and jobs cancel, Temporal) cannot be reached
  ${EXIT.jobFailed}  jobs watch: the job failed or was withdrawn
  ${EXIT.conflict}  jobs retry, jobs cancel: the job is not in a state the command applies to
  ${EXIT.ambiguous}  jobs watch: several jobs are about the id given (the message lists them)

Every command takes --json: its result as one JSON line on stdout, and a failure as
{"error":{"exit","code","message"}} on stderr.`;

/** Opens the database for one command; bad settings or a refused connection are `unavailable`. */
async function withDatabase<T>(fn: (ds: DataSource) => Promise<T>): Promise<T> {
  let ds: DataSource;
  try {
    ds = await createDataSource(loadDatabaseConfig()).initialize();
  } catch (err) {
    throw new CliError('unavailable', `database: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return await fn(ds);
  } finally {
    await ds.destroy();
  }
}

/**
 * Connects to Temporal for one command (TEMPORAL_*); one that cannot be reached is `unavailable`. With the
 * database, it is what a transaction that starts jobs needs (platform/db/after-commit.ts).
 */
async function withTemporal<T>(ds: DataSource, fn: (work: WorkSource) => Promise<T>): Promise<T> {
  const temporal = new TemporalGateway({ ...loadTemporalConfig(), ...loadJobsConfig() });
  try {
    await temporal.getClient();
  } catch (err) {
    throw new CliError('unavailable', `temporal: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return await fn({
      ds,
      temporal,
      logger: pino({ level: 'warn' }, pino.destination(2)),
      config: loadPublicBaseUrl(),
    });
  } finally {
    await temporal.close();
  }
}

function nonEmpty(name: string, value: string): string {
  if (!value.trim()) throw new CliError('usage', `${name}: must not be empty`);
  return value.trim();
}

async function bootstrap(ds: DataSource, email: string, title: string) {
  return inTransaction(ds, async (db) => {
    const user = await ensureUser(db, email);
    // Reuse the organization of that title this user already administers.
    const existing = await db
      .createQueryBuilder(Organization, 'o')
      .innerJoin(Member, 'm', "m.organizationId = o.id AND m.userId = :userId AND m.role = 'admin'", {
        userId: user.id,
      })
      .where('o.title = :title', { title })
      .orderBy('o.createdAt', 'ASC')
      .getOne();
    const org = existing ?? (await createOrganization(db, { title }, user.id));
    const { secret } = await issueToken(db, user.id, 'bootstrap');
    return { userId: user.id, organizationId: org.id, token: secret };
  });
}

async function addUser(ds: DataSource, organizationId: string, email: string, role: Role | null) {
  return inTransaction(ds, async (db) => {
    if (!(await db.findOneBy(Organization, { id: organizationId })))
      throw new CliError('notFound', `--org: organization ${organizationId} not found`);
    const user = await ensureUser(db, email);
    await addOrUpdateMember(db, organizationId, user.id, role);
    const { secret } = await issueToken(db, user.id, 'cli');
    return { userId: user.id, token: secret };
  });
}

const jsonOption = () => new Option('--json', 'print the result as one JSON line (errors as JSON on stderr)');

function buildProgram(json: boolean): Command {
  const program = new Command('cli')
    .description(
      'Operator CLI of the docs platform: talks to the database directly, with the settings of the API (MYSQL_*). Run as `node dist/cli/main.js …` or `npm run -s cli -- …`.',
    )
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    // with --json, commander's own error text is replaced by the JSON error written in run()
    .configureOutput({ writeErr: (s) => void (json || process.stderr.write(s)) });
  // settings that every subcommand inherits
  const command = (parent: Command, name: string) =>
    parent.command(name).addOption(jsonOption()).showHelpAfterError('(add --help for usage)');

  command(program, 'bootstrap')
    .description(
      'Create the user if needed and an organization with them as admin (reusing one of that title they already administer); issue a token for them.',
    )
    .requiredOption('--email <email>', 'e-mail of the admin')
    .requiredOption('--org <title>', 'title of the organization, 2..255 characters')
    .addHelpText('after', '\nOutput: userId, organizationId, token (--json: {"userId","organizationId","token"})')
    .action(async (o: { email: string; org: string; json?: boolean }) => {
      const title = nonEmpty('--org', o.org);
      if (title.length < 2 || title.length > 255) throw new CliError('usage', '--org: must be 2..255 characters');
      const result = await withDatabase((ds) => bootstrap(ds, nonEmpty('--email', o.email), title));
      writeResult(result, fieldsText(result), !!o.json);
    });

  const user = program.command('user').description('user add: organization members');
  command(user, 'add')
    .description(
      'Create the user if needed, add them to the organization or change their role; issue a token for them.',
    )
    .requiredOption('--org <organizationId>', 'the organization, by id (an id beginning with "-" is fine)')
    .requiredOption('--email <email>', 'e-mail of the user')
    .addOption(
      new Option('--role <role>', 'their organization role; guest: no organization role')
        .choices([...ROLES, 'guest'])
        .makeOptionMandatory(),
    )
    .addHelpText('after', '\nOutput: userId, token (--json: {"userId","token"})')
    .action(async (o: { org: string; email: string; role: Role | 'guest'; json?: boolean }) => {
      const result = await withDatabase((ds) =>
        addUser(ds, nonEmpty('--org', o.org), nonEmpty('--email', o.email), o.role === 'guest' ? null : o.role),
      );
      writeResult(result, fieldsText(result), !!o.json);
    });

  const token = program.command('token').description('token revoke: API tokens');
  command(token, 'revoke')
    .description(
      'Revoke a token by its secret. Revoking an unknown or already revoked token changes nothing and still succeeds (revoked: false).',
    )
    .argument('<token>', 'the secret, dpt_…')
    .allowUnknownOption() // the argument is the token, whatever it begins with
    .addHelpText('after', '\nOutput: revoked true|false (--json: {"revoked":true|false})')
    .action(async (secret: string, o: { json?: boolean }) => {
      const result = { revoked: await withDatabase((ds) => inTransaction(ds, (db) => revokeBySecret(db, secret))) };
      writeResult(
        result,
        result.revoked ? 'revoked' : 'nothing revoked: the token is unknown or already revoked',
        !!o.json,
      );
    });

  const jobs = program
    .command('jobs')
    .description('jobs list, jobs watch: durable jobs, read from their rows; jobs retry, jobs cancel: act on one');
  command(jobs, 'list')
    .description('List jobs, newest request first (at most 1,000).')
    .option('--org <organizationId>', "only this organization's jobs (exit 3 when it does not exist)")
    .addOption(new Option('--kind <kind>', 'only jobs of this kind').choices(JOB_KINDS.map((k) => k.name)))
    .addOption(new Option('--state <state>', 'only jobs in this state').choices(LISTED_STATUSES))
    .option(
      '--about <id>',
      'only the jobs about this id: the job on that row, and those on rows naming it (a change request: its PDF exports; a space: its purge, imports and translations; an installation: its events)',
    )
    .addHelpText(
      'after',
      '\nOutput: a table of kind, resource, workflow id, status, progress, times and error code\n(--json: {"jobs":[{"kind","resourceId","organizationId","spaceId","workflowId","status","progress",…}]})',
    )
    .action(async (o: { org?: string; kind?: string; state?: ListedStatus; about?: string; json?: boolean }) => {
      const result = await withDatabase((ds) => listJobsCommand(ds, o));
      writeResult(result, jobsText(result.jobs), !!o.json);
    });
  command(jobs, 'watch')
    .description(
      'Show the progress of the job on the resource on stderr until it ends: a bar on a terminal, a line each time it changes otherwise, nothing with --json; a purge shows when it is due (SPACE_RETENTION_SECONDS after the deletion). Exit code 0 when it succeeded (or removed its own row, as a purge does), 5 when it failed or was withdrawn, 3 when no job was asked for, 7 when several jobs are about the id (listed).',
    )
    .argument(
      '<id>',
      'the id of the row the job works on (a space for its purge, an import, a translation, a spec, an event), or of what the job is about (a change request for its PDF export, a space for its import): several such jobs are listed, exit 7',
    )
    .allowUnknownOption() // the argument is the id, whatever it begins with
    .addHelpText('after', '\nOutput: the finished job (--json: the job as `jobs list` shows it)')
    .action(async (resourceId: string, o: { json?: boolean }) => {
      const display = o.json ? 'none' : process.stderr.isTTY ? 'bar' : 'lines';
      const { spaceRetentionSeconds } = loadJobsConfig();
      const job = await withDatabase((ds) =>
        watchJobCommand(ds, resourceId, { display, retentionSeconds: spaceRetentionSeconds }),
      );
      writeResult(job, `${job.workflowId} ${job.status}`, !!o.json);
    });
  command(jobs, 'retry')
    .description(
      'Run a failed job again, or one whose run was lost (closed in Temporal without recording its end), as a new generation. Exit code 6 when the job is running or succeeded, 3 when no job was asked for, 4 when the database or Temporal cannot be reached.',
    )
    .argument('<resourceId>', 'the id of the row the job works on')
    .allowUnknownOption()
    .addHelpText('after', '\nOutput: `<workflowId> <status>` of the new run (--json: the job as `jobs list` shows it)')
    .action(async (resourceId: string, o: { json?: boolean }) => {
      const job = await withDatabase((ds) => withTemporal(ds, (work) => retryJobCommand(work, resourceId)));
      writeResult(job, `${job.workflowId} ${job.status}`, !!o.json);
    });
  command(jobs, 'cancel')
    .description(
      'End a pending or running job as CANCELLED and cancel its run. Exit code 6 when the job is not pending or running, 3 when no job was asked for, 4 when the database or Temporal cannot be reached.',
    )
    .argument('<resourceId>', 'the id of the row the job works on')
    .allowUnknownOption()
    .addHelpText(
      'after',
      '\nOutput: `<workflowId> failed` (--json: the job as `jobs list` shows it, errorCode CANCELLED)',
    )
    .action(async (resourceId: string, o: { json?: boolean }) => {
      const job = await withDatabase((ds) => withTemporal(ds, (work) => cancelJobCommand(work, resourceId)));
      writeResult(job, `${job.workflowId} ${job.status}`, !!o.json);
    });
  const secrets = program.command('secrets').description("secrets rotate: integrations' stored secrets");
  command(secrets, 'rotate')
    .description(
      'Encrypt again under the first key of INTEGRATION_SECRETS_KEY every integration secret that an older key of the ring opens. Exit code 1 when no key opens some (the others are rotated all the same), 4 when INTEGRATION_SECRETS_KEY is missing or invalid or the database cannot be reached.',
    )
    .addHelpText('after', '\nOutput: reencrypted, current (--json: {"reencrypted","current","unreadable":[]})')
    .action(async (o: { json?: boolean }) => {
      const keys = secretsKeyRing();
      const result = await withDatabase((ds) => rotateSecretsCommand(ds, keys));
      writeResult(result, rotationText(result), !!o.json);
    });
  return program;
}

/** Parses and runs one command line; resolves with its exit code. */
export async function run(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  try {
    await buildProgram(json).parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
      if (json) writeError('usage', err.message.replace(/^error: /, ''), true);
      return EXIT.usage;
    }
    const exit = err instanceof CliError ? err.exit : 'error';
    writeError(exit, err instanceof Error ? err.message : String(err), json);
    if (exit === 'usage' && !json) process.stderr.write('(add --help for usage)\n');
    return EXIT[exit];
  }
}

if (require.main === module) {
  void run(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
