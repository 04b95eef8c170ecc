/**
 * Operator CLI, for scripts: every command prints one JSON line on success, a message on stderr
 * and exit code 1 on failure.
 *   bootstrap --email E --org TITLE           -> {"userId","organizationId","token"}
 *   user add --org ID --email E --role ROLE   -> {"userId","token"}   (ROLE: a spec role or guest)
 *   token revoke TOKEN                        -> {"revoked": true|false}
 *   jobs list [--org ID] [--kind K] [--state S] -> {"jobs": [...]}
 *   jobs watch RESOURCE_ID                    -> a progress bar on stderr, then the finished job; exit 1 if it failed
 */
import 'reflect-metadata';
import { parseArgs } from 'util';
import { ROLES, Role } from '../domain/access/roles';
import { issueToken, revokeBySecret } from '../domain/auth/tokens';
import { loadDatabaseConfig } from '../domain/config';
import { inTransaction } from '../domain/db';
import { addOrUpdateMember } from '../domain/organizations/membership';
import { createOrganization } from '../domain/organizations/organizations';
import { ensureUser } from '../domain/users/users';
import { createDataSource } from '../entities/data-source';
import { Member } from '../entities/Member';
import { Organization } from '../entities/Organization';
import { JOBS_USAGE, listJobsCommand, watchJobCommand } from './jobs';

const USAGE = `usage:
  bootstrap --email E --org TITLE
  user add --org ORGANIZATION_ID --email E --role ${[...ROLES, 'guest'].join('|')}
  token revoke TOKEN
  ${JOBS_USAGE}`;

function fail(message: string): never {
  throw new Error(`${message}\n${USAGE}`);
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v.trim()) fail(`--${name} is required`);
  return v.trim();
}

async function main(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, org: { type: 'string' }, role: { type: 'string' }, kind: { type: 'string' }, state: { type: 'string' } },
  });
  const [command, sub, arg] = positionals;
  const ds = await createDataSource(loadDatabaseConfig()).initialize();
  try {
    if (command === 'bootstrap') {
      const email = required(values, 'email');
      const title = required(values, 'org');
      if (title.length < 2 || title.length > 255) fail('--org: must be 2..255 characters');
      return await inTransaction(ds, async (db) => {
        const user = await ensureUser(db, email);
        // Reuse the organization of that title this user already administers.
        const existing = await db
          .createQueryBuilder(Organization, 'o')
          .innerJoin(Member, 'm', "m.organizationId = o.id AND m.userId = :userId AND m.role = 'admin'", { userId: user.id })
          .where('o.title = :title', { title })
          .orderBy('o.createdAt', 'ASC')
          .getOne();
        const org = existing ?? (await createOrganization(db, { title }, user.id));
        const { secret } = await issueToken(db, user.id, 'bootstrap');
        return { userId: user.id, organizationId: org.id, token: secret };
      });
    }
    if (command === 'user' && sub === 'add') {
      const organizationId = required(values, 'org');
      const email = required(values, 'email');
      const roleArg = required(values, 'role');
      if (roleArg !== 'guest' && !(ROLES as readonly string[]).includes(roleArg)) fail(`--role: must be one of ${[...ROLES, 'guest'].join(', ')}`);
      const role = roleArg === 'guest' ? null : (roleArg as Role);
      return await inTransaction(ds, async (db) => {
        if (!(await db.findOneBy(Organization, { id: organizationId }))) fail(`--org: organization ${organizationId} not found`);
        const user = await ensureUser(db, email);
        await addOrUpdateMember(db, organizationId, user.id, role);
        const { secret } = await issueToken(db, user.id, 'cli');
        return { userId: user.id, token: secret };
      });
    }
    if (command === 'token' && sub === 'revoke') {
      if (!arg) fail('TOKEN is required');
      return { revoked: await inTransaction(ds, (db) => revokeBySecret(db, arg)) };
    }
    if (command === 'jobs' && sub === 'list') return await listJobsCommand(ds, values as { org?: string; kind?: string; state?: string }, fail);
    if (command === 'jobs' && sub === 'watch') {
      if (!arg) fail('RESOURCE_ID is required');
      return await watchJobCommand(ds, arg);
    }
    return fail(`unknown command "${positionals.join(' ')}"`);
  } finally {
    await ds.destroy();
  }
}

main(process.argv.slice(2)).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
