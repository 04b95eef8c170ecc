/**
 * `node dist/platform/db/create-database.js`: makes sure the configured database exists on a MySQL server
 * the scripts did not start (a managed one), creating it when the configured user may. Says plainly
 * what is wrong when the server cannot be reached, refuses the user, or the user may not create it.
 */
import { createConnection } from 'mysql2/promise';
import { DatabaseConfig, loadDatabaseConfig } from '../config';
import { explainConnectionError, mysqlSslOptions } from './data-source';

type MysqlConfig = DatabaseConfig['mysql'];

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);

/** Connects as the configured user, to the database or (`database: undefined`) to none. */
function connect(mysql: MysqlConfig, database: string | undefined) {
  return createConnection({
    host: mysql.host,
    port: mysql.port,
    user: mysql.user,
    password: mysql.password,
    database,
    connectTimeout: 10_000,
    ssl: mysqlSslOptions(mysql),
  });
}

/** What an operator should read for a failure of `ensureDatabase`. */
export function explain(mysql: MysqlConfig, err: unknown): string {
  const server = `MySQL at ${mysql.host}:${mysql.port} (MYSQL_HOST, MYSQL_PORT)`;
  const code = (err as { code?: string }).code ?? '';
  const detail = err instanceof Error ? err.message : String(err);
  if (UNREACHABLE.has(code)) return `${server} is not reachable: ${detail}`;
  if (code === 'ER_ACCESS_DENIED_ERROR')
    return `${server} refused user ${mysql.user} (MYSQL_USER, MYSQL_PASSWORD): ${detail}`;
  if (code === 'ER_DBACCESS_DENIED_ERROR' || code === 'ER_SPECIFIC_ACCESS_DENIED_ERROR') {
    return [
      `database ${mysql.database} (MYSQL_DATABASE) is missing or closed to ${mysql.user}, who may not create it (${detail}).`,
      'Ask an administrator of the server to run:',
      `  CREATE DATABASE IF NOT EXISTS \`${mysql.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`,
      `  GRANT ALL PRIVILEGES ON \`${mysql.database}\`.* TO '${mysql.user}'@'%';`,
    ].join('\n');
  }
  const tls = explainConnectionError(err, mysql);
  if (tls !== err && tls instanceof Error) return tls.message;
  return `${server}: ${detail}`;
}

/** Answers whether the database had to be created. */
export async function ensureDatabase(mysql: MysqlConfig): Promise<'exists' | 'created'> {
  if (!/^[\w$-]{1,64}$/.test(mysql.database))
    throw new Error('MYSQL_DATABASE: must be 1..64 letters, digits, _, $ or -');
  try {
    await (await connect(mysql, mysql.database)).end();
    return 'exists';
  } catch (err) {
    const code = (err as { code?: string }).code;
    // a user without rights on a missing database is told "access denied", not "unknown database"
    if (code !== 'ER_BAD_DB_ERROR' && code !== 'ER_DBACCESS_DENIED_ERROR') throw err;
  }
  const connection = await connect(mysql, undefined);
  try {
    await connection.query(
      `CREATE DATABASE IF NOT EXISTS \`${mysql.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    return 'created';
  } finally {
    await connection.end();
  }
}

if (require.main === module) {
  const { mysql } = loadDatabaseConfig();
  ensureDatabase(mysql).then(
    (result) => {
      if (result === 'created')
        process.stdout.write(`created database ${mysql.database} on ${mysql.host}:${mysql.port}\n`);
    },
    (err) => {
      process.stderr.write(`${explain(mysql, err)}\n`);
      process.exit(1);
    },
  );
}
