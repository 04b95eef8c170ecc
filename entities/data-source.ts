import 'reflect-metadata';
import * as path from 'path';
import { DataSource, DefaultNamingStrategy } from 'typeorm';
import type { DatabaseConfig } from '../domain/config';
import { entities } from './index';

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

/** The one way to build a DataSource: migrations only, never synchronize. */
export function createDataSource(config: DatabaseConfig, overrides: { database?: string } = {}): DataSource {
  return new DataSource({
    type: config.mysql.flavor,
    host: config.mysql.host,
    port: config.mysql.port,
    username: config.mysql.user,
    password: config.mysql.password,
    database: overrides.database ?? config.mysql.database,
    entities,
    namingStrategy: new NamingStrategy(),
    migrations: [path.join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    timezone: 'Z',
    dateStrings: false,
    charset: 'utf8mb4_unicode_ci',
    poolSize: config.mysql.poolSize,
    // statements kept prepared per connection (domain/rows.ts queryPrepared), least recently used
    // closed first: bounded well under MariaDB's max_prepared_stmt_count (16,382) for a few processes
    extra: { maxPreparedStatements: 128 },
    supportBigNumbers: true,
    logging: false,
  });
}
