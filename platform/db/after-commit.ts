/**
 * Work that runs once a transaction commits, as Outline's `transaction.afterCommit`: domain code registers it
 * on the transaction it was handed (a job's start, a superseded run's cancel, an integration event's
 * delivery), inTransaction runs it after the commit, and a rollback drops it. What the work needs (the
 * Temporal gateway, the logger, the configuration) is passed to inTransaction by its caller, the API's
 * handler or the worker's activity, and reaches the work through the transaction: nothing is looked up in
 * ambient context. A function that registers such work takes a WorkTx, so calling it with a bare
 * EntityManager is a compile error, and at run time an error (assertWorkTx).
 */
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { Config } from '../config';
import type { TemporalGateway } from '../temporal/gateway';

/** What after-commit work runs with: the caller of inTransaction hands it over with the data source. */
export interface AfterCommitServices {
  /** The address event payloads link to: all of the configuration a transaction's writes read. */
  config: Pick<Config, 'publicBaseUrl'>;
  temporal: TemporalGateway;
  logger: Logger;
}

/** A transaction that can start jobs and events once it commits. */
export interface WorkTx extends EntityManager {
  /** Registers `work` to run, awaited and in order, once this transaction commits; a rollback drops it. */
  afterCommit(work: () => Promise<void>): void;
  readonly services: AfterCommitServices;
}

/** The after-commit list of one open transaction. */
export class AfterCommitList {
  private readonly work: Array<() => Promise<void>> = [];

  constructor(private readonly services: AfterCommitServices) {}

  /** Makes `db`, the manager of the transaction, a WorkTx whose work lands on this list. */
  attach(db: EntityManager): WorkTx {
    return Object.assign(db, {
      afterCommit: (work: () => Promise<void>) => {
        if (!db.queryRunner?.isTransactionActive) throw new Error('afterCommit: the transaction has already ended');
        this.work.push(work);
      },
      services: this.services,
    });
  }

  /**
   * Runs the committed transaction's work in the order it was registered, each awaited: the caller answers
   * once its jobs and events were started. A failure is logged, not thrown (the commit stands), and the
   * reconciler starts what it lost.
   */
  async run(): Promise<void> {
    for (const work of this.work) {
      try {
        await work();
      } catch (err) {
        this.services.logger.warn({ err }, 'after-commit work failed; the reconciler repairs what it lost');
      }
    }
  }
}

/** Fails loudly where a job or an event would be asked for without a transaction that can start it. */
export function assertWorkTx(db: EntityManager): asserts db is WorkTx {
  if (typeof (db as Partial<WorkTx>).afterCommit !== 'function' || !db.queryRunner?.isTransactionActive)
    throw new Error(
      'this write starts a job or an event once it commits: run it in inTransaction(work, …) with the Temporal gateway, the logger and the configuration',
    );
}
