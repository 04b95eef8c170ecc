/**
 * The jobs gauge: how many jobs of each kind are pending, running, or failed in the last hour, counted
 * from their rows when scraped. Alerts on stuck jobs need it (a pending count that does not fall, a
 * running one that stays up; docs/deploy.md §7): the counters say what happened, not what waits.
 */
import { Gauge, type Registry } from 'prom-client';
import { type DataSource, type FindOptionsWhere, MoreThanOrEqual } from 'typeorm';
import type { JobState } from '../../entities/JobState';
import type { Db } from '../../platform/db/transactions';
import { JOB_STATUS_WHERE } from '../jobs/job-queries';
import { JOB_KINDS } from '../jobs/kinds';

/** How far back `failed_last_hour` looks. */
const FAILED_WINDOW_MS = 3600_000;

/** The gauge's statuses: the lists' (job-queries.ts), the failed ones within the last hour only. */
const STATUS_WHERE = {
  pending: () => JOB_STATUS_WHERE.pending,
  running: () => JOB_STATUS_WHERE.running,
  failed_last_hour: (now: Date) => ({
    ...JOB_STATUS_WHERE.failed,
    finishedAt: MoreThanOrEqual(new Date(now.getTime() - FAILED_WINDOW_MS)),
  }),
} satisfies Record<string, (now: Date) => FindOptionsWhere<JobState>>;

export interface JobCount {
  kind: string;
  status: keyof typeof STATUS_WHERE;
  count: number;
}

/** The count of every kind and status, zeros included: a count per kind and status (18 indexed counts). */
export async function countJobs(db: Db, now = new Date()): Promise<JobCount[]> {
  const counts: JobCount[] = [];
  for (const kind of JOB_KINDS)
    for (const status of Object.keys(STATUS_WHERE) as Array<JobCount['status']>) {
      const where = { [kind.state]: STATUS_WHERE[status](now) };
      counts.push({ kind: kind.name, status, count: await db.count(kind.entity, { where }) });
    }
  return counts;
}

/**
 * Adds the `jobs` gauge to a registry, counted when scraped. A scrape waits for the counts `boundMs` at most (a
 * database that hangs must not hang the scrape), and one counting runs at a time: a scrape during a slow one
 * waits for that one instead of starting another.
 */
export function registerJobsGauge(registry: Registry, ds: DataSource, boundMs = 5000): void {
  let counting: Promise<JobCount[]> | null = null;
  new Gauge({
    name: 'jobs',
    help: 'Jobs by kind and status, from their rows when scraped: pending (asked for, not started), running, failed_last_hour (runs that failed within the last hour); every worker replica reports the same counts',
    labelNames: ['kind', 'status'],
    registers: [registry],
    async collect() {
      counting ??= countJobs(ds.manager).finally(() => {
        counting = null;
      });
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), boundMs);
      });
      const counts = await Promise.race([counting, bound])
        .catch(() => null)
        .finally(() => clearTimeout(timer));
      // no samples rather than stale ones, and the rest of the scrape still answers: alert on absent(jobs)
      this.reset();
      for (const { kind, status, count } of counts ?? []) this.set({ kind, status }, count);
    },
  });
}
