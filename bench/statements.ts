/**
 * Counts the SQL statements the API issues for one request: the real app in this process, on a
 * DataSource whose TypeORM logger counts queries, on an ephemeral port.
 */
import { once } from 'events';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import pino from 'pino';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { createApp } from '../api/app';
import type { Config } from '../platform/config';
import { createDataSource } from '../platform/db/data-source';
import { createBlobStore } from '../platform/storage';
import { TemporalGateway } from '../platform/temporal/gateway';
import type { Fresh } from './http-load';

export class StatementCounter {
  /** the statements of the request being counted, as TypeORM logs them */
  private statements: string[] = [];

  private constructor(
    private readonly server: Server,
    private readonly close: () => Promise<void>,
  ) {}

  static async start(config: Config): Promise<StatementCounter> {
    const counter: { count?: (sql: string) => void } = {};
    const logger: TypeOrmLogger = {
      logQuery: (sql) => counter.count?.(sql),
      logQueryError: () => undefined,
      logQuerySlow: () => undefined,
      logSchemaBuild: () => undefined,
      logMigration: () => undefined,
      log: () => undefined,
    };
    const ds = await createDataSource(config)
      .setOptions({ logger, logging: ['query'] })
      .initialize();
    const temporal = new TemporalGateway(config);
    const app = createApp({ ds, config, temporal, blobs: createBlobStore(config), logger: pino({ level: 'silent' }) });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const self = new StatementCounter(server, async () => {
      server.close();
      await temporal.close();
      await ds.destroy();
    });
    counter.count = (sql) => self.statements.push(sql.replace(/\s+/g, ' '));
    return self;
  }

  /** The parsed answer of a GET that must succeed. */
  async get(path: string, token: string): Promise<unknown> {
    const res = await fetch(`http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text);
  }

  /**
   * Statements of one GET of `path` (after a first GET that warms per-process state: the token, the
   * answers the service remembers), each as sent. `fresh`: each GET asks another path (http-load.ts).
   */
  async of(path: string, token: string, fresh: Fresh = false): Promise<string[]> {
    const nth = (n: number) => (typeof fresh === 'function' ? fresh(n) : fresh ? `${path}${n}` : path);
    await this.get(nth(1), token);
    this.statements = [];
    await this.get(nth(2), token);
    const counted = this.statements;
    this.statements = [];
    return counted;
  }

  stop(): Promise<void> {
    return this.close();
  }
}
