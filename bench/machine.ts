/** What the benchmarks ran on, for their reports. */
import * as os from 'os';
import type { DataSource } from 'typeorm';

export async function machine(ds: DataSource): Promise<Record<string, string | number>> {
  const [row] = await ds.query('SELECT VERSION() AS v, @@innodb_buffer_pool_size AS pool');
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    mariadb: String(row.v),
    innodbBufferPoolMiB: Math.round(Number(row.pool) / 2 ** 20),
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
  };
}
