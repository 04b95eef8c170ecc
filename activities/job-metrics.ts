/**
 * The job machinery's metrics: runs started, completed and failed by kind, with their durations.
 * Recorded by the job activities once their row change committed (workflow code must stay
 * deterministic, so it records nothing); served by the worker's /metrics (worker/main.ts).
 * Every kind's series exist from the start at zero (a failure under its kind's own code appears when
 * first recorded): a series born at 1 hides its first increase from rate() and increase().
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { JOB_FAILURES } from '../domain/jobs/contracts';
import { JOB_KINDS } from '../domain/jobs/kinds';

export class JobMetrics {
  private readonly started: Counter<'kind'>;
  private readonly completed: Counter<'kind'>;
  private readonly failed: Counter<'kind' | 'code'>;
  private readonly duration: Histogram<'kind' | 'outcome'>;

  constructor(readonly registry: Registry = new Registry()) {
    const registers = [registry];
    this.started = new Counter({
      name: 'jobs_started_total',
      help: 'Job runs that began their work, by kind',
      labelNames: ['kind'],
      registers,
    });
    this.completed = new Counter({
      name: 'jobs_completed_total',
      help: 'Job runs that succeeded, by kind',
      labelNames: ['kind'],
      registers,
    });
    this.failed = new Counter({
      name: 'jobs_failed_total',
      help: 'Job runs that failed, by kind and the code recorded on the row',
      labelNames: ['kind', 'code'],
      registers,
    });
    this.duration = new Histogram({
      name: 'job_duration_seconds',
      help: 'Job runs from the start of their work to their end, by kind and outcome (succeeded, failed)',
      labelNames: ['kind', 'outcome'],
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 24 * 3600],
      registers,
    });
    for (const { name: kind } of JOB_KINDS) {
      this.started.inc({ kind }, 0);
      this.completed.inc({ kind }, 0);
      this.failed.inc({ kind, code: JOB_FAILURES.failed }, 0);
      for (const outcome of ['succeeded', 'failed']) this.duration.zero({ kind, outcome });
    }
  }

  jobStarted(kind: string): void {
    this.started.inc({ kind });
  }

  /** `failureCode` null: it succeeded. A run with no recorded start (it failed before) has no duration. */
  jobFinished(kind: string, failureCode: string | null, startedAt: Date | null, finishedAt: Date): void {
    if (failureCode === null) this.completed.inc({ kind });
    else this.failed.inc({ kind, code: failureCode });
    if (startedAt)
      this.duration.observe(
        { kind, outcome: failureCode === null ? 'succeeded' : 'failed' },
        Math.max(0, finishedAt.getTime() - startedAt.getTime()) / 1000,
      );
  }
}
