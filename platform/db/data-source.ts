import 'reflect-metadata';
import { isIP } from 'net';
import * as path from 'path';
import { DataSource, type DataSourceOptions, DefaultNamingStrategy } from 'typeorm';
import { types } from 'util';
import { entities } from '../../entities';
import type { DatabaseConfig } from '../config';

/**
 * TypeORM's names for embedded columns lower-case all but the first letter (`purgeRunid`); these
 * keep the property's camelCase after the prefix (`purgeRunId`), as every other column has it.
 */
class NamingStrategy extends DefaultNamingStrategy {
  override columnName(propertyName: string, customName: string | undefined, embeddedPrefixes: string[]): string {
    const name = customName || propertyName;
    return embeddedPrefixes.length ? embeddedPrefixes.join('') + name.charAt(0).toUpperCase() + name.slice(1) : name;
  }
}

type MysqlSettings = DatabaseConfig['mysql'];

/**
 * mysql2's `ssl`: the CA replaces the system's roots when given. Verifying checks the chain, and the host
 * name when MYSQL_HOST is a name: mysql2 checks an IP address against "localhost", so an address is
 * verified by its chain alone.
 */
export function mysqlSslOptions(mysql: MysqlSettings) {
  const { tls } = mysql;
  if (!tls) return undefined;
  return {
    ...(tls.ca ? { ca: tls.ca } : {}),
    ...(tls.cert ? { cert: tls.cert, key: tls.key } : {}),
    rejectUnauthorized: tls.verifyServer,
    verifyIdentity: tls.verifyServer && !isIP(mysql.host),
  };
}

/**
 * A failed first connection, said in terms of the settings to change when TLS is the cause; others pass as
 * they are. mysql2 replaces the TLS error's code by HANDSHAKE_SSL_ERROR, so its message tells them apart.
 */
export function explainConnectionError(err: unknown, mysql: MysqlSettings): unknown {
  if (!types.isNativeError(err)) return err; // not instanceof: the driver's errors may come from another realm (jest)
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const server = `MySQL at ${mysql.host}:${mysql.port}`;
  let message: string | null = null;
  if (code === 'HANDSHAKE_NO_SSL_SUPPORT')
    message = `${server} does not offer TLS; enable TLS on the server, or unset MYSQL_TLS, MYSQL_TLS_CA, MYSQL_TLS_CERT and MYSQL_TLS_KEY`;
  else if (/insecure transport/i.test(err.message))
    message = `${server} requires TLS (${err.message}); set MYSQL_TLS=true, and MYSQL_TLS_CA to the CA of its certificate`;
  else if (code === 'ER_ACCESS_DENIED_ERROR' && !mysql.tls)
    // MariaDB answers a plain connection that it requires TLS of with this alone
    message = `${server}: ${err.message}; check MYSQL_USER and MYSQL_PASSWORD, and set MYSQL_TLS=true if the server requires TLS`;
  else if (code !== 'HANDSHAKE_SSL_ERROR') return err;
  else if (/altnames/i.test(err.message))
    message = `${server}: its TLS certificate does not name ${mysql.host} (${err.message}); connect by a name the certificate holds (MYSQL_HOST), or set MYSQL_TLS_VERIFY_SERVER=false to skip the check`;
  else if (/alert/i.test(err.message))
    message = `${server} refused the TLS handshake (${err.message}); check MYSQL_TLS_CERT and MYSQL_TLS_KEY, the client certificate it expects`;
  else
    message = `${server}: its TLS certificate is not trusted (${err.message}); set MYSQL_TLS_CA (or MYSQL_TLS_CA_FILE) to the CA that signed it`;
  return new Error(message, { cause: err });
}

/** A DataSource whose failed start names the TLS setting at fault. */
class ServiceDataSource extends DataSource {
  constructor(
    options: DataSourceOptions,
    private readonly mysql: MysqlSettings,
  ) {
    super(options);
  }

  override async initialize(): Promise<this> {
    try {
      return await super.initialize();
    } catch (err) {
      throw explainConnectionError(err, this.mysql);
    }
  }
}

/** The one way to build a DataSource: migrations only, never synchronize. */
export function createDataSource(config: DatabaseConfig, overrides: { database?: string } = {}): DataSource {
  const options: DataSourceOptions = {
    type: config.mysql.flavor,
    host: config.mysql.host,
    port: config.mysql.port,
    username: config.mysql.user,
    password: config.mysql.password,
    database: overrides.database ?? config.mysql.database,
    entities,
    namingStrategy: new NamingStrategy(),
    migrations: [path.join(__dirname, '..', '..', 'entities', 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    timezone: 'Z',
    dateStrings: false,
    charset: 'utf8mb4_unicode_ci',
    poolSize: config.mysql.poolSize,
    // a server that accepts and never answers (frozen) fails the connection instead of holding it
    connectTimeout: config.mysql.connectTimeoutMs,
    // statements kept prepared per connection (platform/db/rows.ts queryPrepared), least recently used
    // closed first: bounded well under MariaDB's max_prepared_stmt_count (16,382) for a few processes
    extra: { maxPreparedStatements: 128 },
    supportBigNumbers: true,
    ssl: mysqlSslOptions(config.mysql),
    logging: false,
  };
  return new ServiceDataSource(options, config.mysql);
}
