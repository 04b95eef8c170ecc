/**
 * Work that runs once a transaction commits, as Outline's `transaction.afterCommit`: domain code in a
 * transaction registers it (a job's start, a superseded run's cancel, an integration event's delivery)
 * and inTransaction runs it after the commit; a rollback drops it. What it needs comes from the work
 * context the transaction runs in: the API's request (api/operation.ts) or the worker's activity
 * (activities/index.ts). A transaction outside one (a CLI, a test's own write) registers nothing, and
 * the reconciler starts what was asked for, as it does after a crash between the commit and the start.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';
import type { EntityManager as Db, QueryRunner } from 'typeorm';
import type { Config } from '../config';
import type { TemporalGateway } from '../temporal/gateway';

/** What a request or an activity runs with, and its after-commit work needs. */
export interface WorkContext {
  config: Config;
  temporal: TemporalGateway;
  logger: Logger;
}

/** One piece of after-commit work: it logs its own failure (the reconciler repairs what it lost). */
export type AfterCommitAction = (context: WorkContext) => Promise<void>;

interface OpenTransaction {
  context: WorkContext;
  actions: AfterCommitAction[];
}

const work = new AsyncLocalStorage<WorkContext>();
const open = new WeakMap<QueryRunner, OpenTransaction>();

/** Runs `fn` (a request's handler, an activity) in `context`: its transactions run their after-commit work. */
export function withWorkContext<T>(context: WorkContext, fn: () => Promise<T>): Promise<T> {
  return work.run(context, fn);
}

/**
 * Opens the after-commit list of the transaction of `db` (inTransaction, as it begins); null outside a
 * work context.
 */
export function openAfterCommit(db: Db): OpenTransaction | null {
  const context = work.getStore();
  if (!context || !db.queryRunner) return null;
  const transaction = { context, actions: [] };
  open.set(db.queryRunner, transaction);
  return transaction;
}

/** Runs the committed transaction's work in the order it was registered. */
export async function runAfterCommit(transaction: OpenTransaction | null): Promise<void> {
  for (const action of transaction?.actions ?? []) {
    try {
      await action(transaction!.context);
    } catch (err) {
      transaction!.context.logger.warn({ err }, 'after-commit work failed; the reconciler repairs what it lost');
    }
  }
}

function transactionOf(db: Db): OpenTransaction | undefined {
  return db.queryRunner?.isTransactionActive ? open.get(db.queryRunner) : undefined;
}

/** Registers `action` to run once the transaction of `db` commits; nothing outside a work context. */
export function afterCommit(db: Db, action: AfterCommitAction): void {
  transactionOf(db)?.actions.push(action);
}

/** The configuration of the work context the transaction of `db` runs in (an event's user URLs need it). */
export function transactionConfig(db: Db): Config {
  const context = transactionOf(db)?.context ?? work.getStore();
  if (!context) throw new Error('this write needs a work context (withWorkContext) around its transaction');
  return context.config;
}
