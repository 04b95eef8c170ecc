/**
 * A process's Prometheus registry (prom-client), one per API app or worker: Node's own metrics
 * (CPU, memory, event loop, GC) and the use of the process's MySQL pool, read when scraped.
 */
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

/** What mysql2's pool keeps about its connections; it has no public API for it. */
interface Mysql2Pool {
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
  config: { connectionLimit: number };
}

export function createMetricsRegistry(service: 'api' | 'worker', ds: DataSource): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  // TypeORM's mysql driver holds the mysql2 pool once the data source is initialized
  const pool = () => (ds.driver as unknown as { pool?: Mysql2Pool }).pool;
  new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of the MySQL pool: in_use (lent to a query or transaction), idle, max (the pool size, MYSQL_POOL_SIZE)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const p = pool();
      if (!p) return;
      this.set({ state: 'in_use' }, p._allConnections.length - p._freeConnections.length);
      this.set({ state: 'idle' }, p._freeConnections.length);
      this.set({ state: 'max' }, p.config.connectionLimit);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Requests for a MySQL connection waiting because every connection of the pool is in use',
    registers: [registry],
    collect() {
      this.set(pool()?._connectionQueue.length ?? 0);
    },
  });
  return registry;
}
