/**
 * Starts the deliveries of the events a transaction wrote once it has committed, whichever code
 * wrote them (an API request, an import's commit activity). The API and the worker install it on
 * their DataSource; a transaction's events wait beside its query runner and are dropped on rollback.
 * A start lost to a crash (or to a process that installed nothing) is left to the reconciler.
 */
import type { Logger } from 'pino';
import type {
  DataSource,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import type { IntegrationEvent } from '../../entities/IntegrationEvent';
import type { Config } from '../config';
import type { Db } from '../db';
import { dispatchJob } from '../processes/jobs';
import type { TemporalGateway } from '../processes/temporal';
import { integrationDispatchJob } from './dispatch-job';

export interface EventDispatchDeps {
  config: Config;
  temporal: TemporalGateway;
  logger: Logger;
}

class AfterCommitDispatch implements EntitySubscriberInterface {
  private readonly waiting = new WeakMap<QueryRunner, IntegrationEvent[]>();

  constructor(
    private readonly ds: DataSource,
    readonly deps: EventDispatchDeps,
  ) {}

  queue(queryRunner: QueryRunner, event: IntegrationEvent): void {
    const events = this.waiting.get(queryRunner) ?? [];
    events.push(event);
    this.waiting.set(queryRunner, events);
  }

  afterTransactionCommit({ queryRunner }: TransactionCommitEvent): void {
    // a savepoint's release is not the commit
    if (queryRunner.isTransactionActive) return;
    const events = this.waiting.get(queryRunner);
    this.waiting.delete(queryRunner);
    // not awaited: the request answers now; dispatchJob never throws
    for (const row of events ?? [])
      void dispatchJob(
        this.deps.temporal,
        this.ds.manager,
        { kind: integrationDispatchJob, row, start: true, superseded: null },
        this.deps.logger,
      );
  }

  afterTransactionRollback({ queryRunner }: TransactionRollbackEvent): void {
    if (!queryRunner.isTransactionActive) this.waiting.delete(queryRunner);
  }
}

/** Installs the after-commit dispatch on `ds` (once: the API and a worker may share one in tests). */
export function installEventDispatch(ds: DataSource, deps: EventDispatchDeps): void {
  if (ds.subscribers.some((s) => s instanceof AfterCommitDispatch)) return;
  ds.subscribers.push(new AfterCommitDispatch(ds, deps));
}

function dispatchOf(db: Db): AfterCommitDispatch | undefined {
  return db.connection.subscribers.find((s): s is AfterCommitDispatch => s instanceof AfterCommitDispatch);
}

/** Starts the event's delivery once the transaction of `db` commits. */
export function dispatchAfterCommit(db: Db, event: IntegrationEvent): void {
  const dispatch = dispatchOf(db);
  if (dispatch && db.queryRunner?.isTransactionActive) dispatch.queue(db.queryRunner, event);
}

/**
 * The configuration of the process that installed the dispatch: the hooks need its public base URL
 * for the users an event names, and writing content without it installed is a wiring error.
 */
export function eventConfig(db: Db): Config {
  const dispatch = dispatchOf(db);
  if (!dispatch) throw new Error('integration events: installEventDispatch was not called on this DataSource');
  return dispatch.deps.config;
}
