/**
 * Deadlines: what waits on a dependency is bounded, so a database or Temporal that hangs
 * (frozen, not down: connections stay open, nothing answers) fails a request with 503 instead of holding
 * it. A request runs under its deadline (api/middleware/deadline.ts); the MySQL pool bounds the wait for a
 * connection and each statement by their settings, shortened to what the current deadline leaves. A
 * statement past its bound closes its connection: the server rolls its transaction back, and the
 * statements queued behind it on that connection fail at once instead of waiting for it.
 */
import type { ConnectionOptions } from '@temporalio/client';
import { AsyncLocalStorage } from 'async_hooks';
import type { DataSource } from 'typeorm';

/**
 * When the work must be done (`at`, ms since the epoch; Infinity until it starts counting), and what
 * happens when it passes (a request answers 503).
 */
export class Deadline {
  at = Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly onPassed: () => void = () => undefined) {}

  /** Counts `ms` from now. */
  start(ms: number): this {
    this.at = Date.now() + ms;
    this.arm();
    return this;
  }

  /** `ms` more, for a wait the work chose (a job's result): the bounds of its other waits stay. */
  extend(ms: number): void {
    if (this.at === Infinity) return;
    this.at += ms;
    this.arm();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onPassed, this.at - Date.now()).unref();
  }
}

const deadlines = new AsyncLocalStorage<Deadline>();

/** Runs `fn` (and everything it awaits) under `deadline`. */
export function underDeadline<T>(deadline: Deadline, fn: () => T): T {
  return deadlines.run(deadline, fn);
}

/**
 * Runs `fn` (and everything it awaits) outside any deadline: the bookkeeping a request does about its own answer once
 * that answer is decided (an idempotency key given back after the deadline's 503) must not fail for the very deadline
 * that ended it. Its waits keep their own bounds (MYSQL_*_TIMEOUT_MS).
 */
export function outsideDeadline<T>(fn: () => T): T {
  return deadlines.exit(fn);
}

/** `ms`, shortened to what the current deadline leaves (unchanged outside one); at least 1. */
export function withinDeadline(ms: number): number {
  const at = deadlines.getStore()?.at ?? Infinity;
  return Math.max(1, Math.min(ms, at - Date.now()));
}

/**
 * A wait of `ms` the request chooses (for a job's result, IMPORT_WAIT_SECONDS or PDF_WAIT_SECONDS): the
 * current deadline moves by as much, so the wait is the operator's setting whatever REQUEST_TIMEOUT_MS is.
 */
export function chosenWait(ms: number): number {
  deadlines.getStore()?.extend(ms);
  return ms;
}

type GrpcInterceptor = NonNullable<ConnectionOptions['interceptors']>[number];

/**
 * Under a deadline, a Temporal call without one of its own (a wait for a run's result sets its own) gets
 * TEMPORAL_CALL_TIMEOUT_MS, shortened to what the deadline leaves; outside one (the worker's steps, the
 * CLI) calls keep the SDK's behaviour.
 */
export function boundTemporalCalls(callMs: number): GrpcInterceptor {
  // the next call serves as this one: the interceptor only changes its options
  return (options, nextCall) =>
    nextCall(
      options.deadline !== undefined || deadlines.getStore() === undefined
        ? options
        : { ...options, deadline: Date.now() + withinDeadline(callMs) },
    ) as ReturnType<GrpcInterceptor>;
}

/** The error codes a bounded wait fails with: the error handler answers them 503 with Retry-After. */
export const DEADLINE_CODES = {
  /** mysql2's statement timeout */
  statement: 'PROTOCOL_SEQUENCE_TIMEOUT',
  acquire: 'POOL_ACQUIRE_TIMEOUT',
} as const;

type Callback = (err: Error | null, ...rest: unknown[]) => void;

/** The parts of mysql2's pool and pooled connections bounded here (TypeORM holds the pool once initialized). */
interface Mysql2Connection {
  query(...args: unknown[]): unknown;
  execute(...args: unknown[]): unknown;
  destroy(): void;
  release(): void;
}
interface Mysql2Pool {
  getConnection(cb: (err: Error | null, conn?: Mysql2Connection) => void): void;
}

const bounded = new WeakSet<Mysql2Connection>();
const boundPools = new WeakSet<Mysql2Pool>();

/** Gives `query` and `execute` a timeout, and closes the connection when it passes. */
function boundStatements(conn: Mysql2Connection, statementMs: number): void {
  if (bounded.has(conn)) return;
  bounded.add(conn);
  for (const method of ['query', 'execute'] as const) {
    const original = conn[method].bind(conn);
    conn[method] = (sql: unknown, values?: unknown, cb?: unknown) => {
      if (typeof values === 'function') [values, cb] = [undefined, values];
      const options: { timeout?: number } = typeof sql === 'string' ? { sql } : (sql as object);
      const timed = { ...options, timeout: options.timeout ?? withinDeadline(statementMs) };
      if (typeof cb !== 'function') return original(timed, values);
      return original(timed, values, (err: Error | null, ...rest: unknown[]) => {
        if ((err as { code?: string } | null)?.code === DEADLINE_CODES.statement) conn.destroy();
        (cb as Callback)(err, ...rest);
      });
    };
  }
}

/** Bounds the data source's pool: the wait for a connection, and every statement (MYSQL_*_TIMEOUT_MS). */
export function boundPool(ds: DataSource, bounds: { acquireMs: number; statementMs: number }): void {
  const pool = (ds.driver as unknown as { pool?: Mysql2Pool }).pool;
  if (!pool) throw new Error('boundPool: the data source is not initialized');
  if (boundPools.has(pool)) return;
  boundPools.add(pool);
  const getConnection = pool.getConnection.bind(pool);
  // mysql2 hands a waiter on to getConnection again when a closed connection is released: its bound runs already
  const waiting = new WeakSet<object>();
  pool.getConnection = (cb) => {
    if (waiting.has(cb)) return getConnection(cb);
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      const err = new Error(`no MySQL connection was free within ${bounds.acquireMs} ms (MYSQL_ACQUIRE_TIMEOUT_MS)`);
      cb(Object.assign(err, { code: DEADLINE_CODES.acquire }));
    }, withinDeadline(bounds.acquireMs));
    const waiter = (err: Error | null, conn?: Mysql2Connection) => {
      clearTimeout(timer);
      // the waiter gave up: the connection goes back to the pool unused
      if (late) return void conn?.release();
      if (conn) boundStatements(conn, bounds.statementMs);
      cb(err, conn);
    };
    waiting.add(waiter);
    getConnection(waiter);
  };
}
