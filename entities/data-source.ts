import 'reflect-metadata';
import * as path from 'path';
import { DataSource } from 'typeorm';
import type { Config } from '../domain/config';
import { entities } from './index';

/** The one way to build a DataSource: migrations only, never synchronize. */
export function createDataSource(config: Config, overrides: { database?: string } = {}): DataSource {
  return new DataSource({
    type: config.mysql.flavor,
    host: config.mysql.host,
    port: config.mysql.port,
    username: config.mysql.user,
    password: config.mysql.password,
    database: overrides.database ?? config.mysql.database,
    entities,
    migrations: [path.join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    timezone: 'Z',
    dateStrings: false,
    charset: 'utf8mb4_unicode_ci',
    poolSize: config.mysql.poolSize,
    supportBigNumbers: true,
    logging: false,
  });
}
