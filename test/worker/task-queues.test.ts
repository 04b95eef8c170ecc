/** The worker's queues and their concurrency within its MySQL pool. */
import { loadConfig } from '../../platform/config';
import { POOL_RESERVE, planQueues } from '../../worker/task-queues';

const base = loadConfig();
const withSettings = (worker: Partial<typeof base.worker>, poolSize = 20) => ({
  ...base,
  mysql: { ...base.mysql, poolSize },
  temporal: { ...base.temporal, taskQueue: 'docs', heavyTaskQueue: '' },
  worker: {
    ...base.worker,
    maxConcurrentActivities: 0,
    heavyMaxConcurrentActivities: 2,
    queues: ['main', 'heavy'] as Array<'main' | 'heavy'>,
    ...worker,
  },
});

it('by default a worker polls both queues, its activities at once fitting in its pool', () => {
  expect(planQueues(withSettings({}))).toEqual([
    { role: 'main', taskQueue: 'docs', maxConcurrentActivities: 20 - POOL_RESERVE - 2 },
    { role: 'heavy', taskQueue: 'docs-heavy', maxConcurrentActivities: 2 },
  ]);
  expect(planQueues(withSettings({ queues: ['heavy'], heavyMaxConcurrentActivities: 4 }))).toEqual([
    { role: 'heavy', taskQueue: 'docs-heavy', maxConcurrentActivities: 4 },
  ]);
  const named = {
    ...withSettings({ queues: ['main'] }),
    temporal: { ...base.temporal, taskQueue: 'docs', heavyTaskQueue: 'pdf' },
  };
  expect(planQueues(named)).toEqual([{ role: 'main', taskQueue: 'docs', maxConcurrentActivities: 20 - POOL_RESERVE }]);
});

it('more activities at once than the MySQL pool serves refuse to start, naming the settings', () => {
  expect(() => planQueues(withSettings({ maxConcurrentActivities: 100 }))).toThrow(
    /WORKER_MAX_CONCURRENT_ACTIVITIES.*WORKER_HEAVY_MAX_CONCURRENT_ACTIVITIES.*must fit in MYSQL_POOL_SIZE \(20\)/,
  );
  expect(() => planQueues(withSettings({}, 4))).toThrow(/MYSQL_POOL_SIZE \(4\)/);
  expect(planQueues(withSettings({ maxConcurrentActivities: 16 })).map((q) => q.maxConcurrentActivities)).toEqual([
    16, 2,
  ]);
});
