/**
 * The worker's task queues by workload. The main queue carries the workflows and the steps
 * that should run soon (event delivery, purges, bookkeeping); the heavy queue carries the CPU-heavy steps
 * (PDF rendering, import staging) with a concurrency of its own, so a burst of them never holds the
 * others' slots. A step holds at most one MySQL connection at a time, so the steps a worker runs at once
 * must fit in its pool, less the connections it uses beside them: checked here, at start-up.
 */
import { type Config, heavyTaskQueueOf } from '../platform/config';

/** Connections the worker keeps beside its steps: a metrics scrape, the dispatch after a step's commit. */
export const POOL_RESERVE = 2;

export interface QueuePlan {
  role: 'main' | 'heavy';
  taskQueue: string;
  maxConcurrentActivities: number;
}

/** The queues this worker polls, with their concurrency; throws (naming the settings) when they exceed the pool. */
export function planQueues(config: Pick<Config, 'worker' | 'mysql' | 'temporal'>): QueuePlan[] {
  const { worker, mysql, temporal } = config;
  const polls = (role: 'main' | 'heavy') => worker.queues.includes(role);
  const available = mysql.poolSize - POOL_RESERVE;
  const heavy = polls('heavy') ? worker.heavyMaxConcurrentActivities : 0;
  const main = polls('main') ? worker.maxConcurrentActivities || available - heavy : 0;
  if ((polls('main') && main < 1) || main + heavy > available)
    throw new Error(
      `the worker's concurrent activities (main queue ${main}: WORKER_MAX_CONCURRENT_ACTIVITIES${worker.maxConcurrentActivities ? '' : ' unset'}, ` +
        `heavy queue ${heavy}: WORKER_HEAVY_MAX_CONCURRENT_ACTIVITIES) must fit in MYSQL_POOL_SIZE (${mysql.poolSize}) ` +
        `less the ${POOL_RESERVE} connections the worker keeps for itself: raise MYSQL_POOL_SIZE or lower them`,
    );
  const plans: QueuePlan[] = [];
  if (polls('main')) plans.push({ role: 'main', taskQueue: temporal.taskQueue, maxConcurrentActivities: main });
  if (polls('heavy'))
    plans.push({ role: 'heavy', taskQueue: heavyTaskQueueOf(temporal), maxConcurrentActivities: heavy });
  return plans;
}
