/** A benchmark's own database: its name must say "bench" (it is wiped), dropped and migrated afresh. */
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { Config, loadConfig } from '../platform/config';
import { createDataSource } from '../platform/db/data-source';
import type { WorkSource } from '../platform/db/transactions';
import { TemporalGateway } from '../platform/temporal/gateway';
import { machine } from './machine';

export interface BenchDatabase {
  ds: DataSource;
  config: Config;
  database: string;
  /** What its transactions that start jobs or events open with (the gateway connects when first used). */
  work: WorkSource;
  /** what the benchmark runs on, read before the reset */
  machine: Record<string, string | number>;
}

/** MYSQL_DATABASE (or `fallback`), emptied and migrated; `log` says when. */
export async function resetBenchDatabase(fallback: string, log: (message: string) => void): Promise<BenchDatabase> {
  const database = process.env.MYSQL_DATABASE || fallback;
  if (!database.includes('bench'))
    throw new Error(`MYSQL_DATABASE=${database}: the benchmark wipes its database, so its name must contain "bench"`);
  const base = loadConfig();
  const config = { ...base, mysql: { ...base.mysql, database } };
  const ds = await createDataSource(config).initialize();
  const atStart = await machine(ds);
  log(`resetting database ${database}`);
  await ds.dropDatabase();
  await ds.runMigrations({ transaction: 'each' });
  const work = { ds, config, temporal: new TemporalGateway(config), logger: pino({ level: 'silent' }) };
  return { ds, config, database, work, machine: atStart };
}
