/**
 * `cli jobs list` and `cli jobs watch`: jobs as their rows show them (never asked of Temporal); `cli jobs retry`
 * and `cli jobs cancel`: the operator's two actions (domain/jobs/job-operator.ts), which need Temporal too.
 */
import { SingleBar } from 'cli-progress';
import type { DataSource } from 'typeorm';
import { AppError } from '../domain/errors';
import { cancelJobRun, retryJob } from '../domain/jobs/job-operator';
import { findJob, findJobsAbout, JobView, LISTED_STATUSES, listJobs } from '../domain/jobs/job-queries';
import { purgeDueAt } from '../domain/spaces/deletion';
import { spacePurgeJob } from '../domain/spaces/purge-job';
import { Organization } from '../entities/Organization';
import { Space } from '../entities/Space';
import type { WorkSource } from '../platform/db/transactions';
import { CliError, tableText } from './output';

export type ListedStatus = (typeof LISTED_STATUSES)[number];

export async function listJobsCommand(
  ds: DataSource,
  options: { org?: string; kind?: string; state?: ListedStatus; about?: string },
): Promise<{ jobs: JobView[] }> {
  if (options.about !== undefined) {
    const about = await findJobsAbout(ds.manager, options.about);
    return {
      jobs: about.filter(
        (job) =>
          (options.org === undefined || job.organizationId === options.org) &&
          (options.kind === undefined || job.kind === options.kind) &&
          (options.state === undefined || job.status === options.state),
      ),
    };
  }
  // an organization that does not exist is an error, not an empty list (a mistyped id would read as "no jobs")
  if (options.org !== undefined && !(await ds.manager.existsBy(Organization, { id: options.org })))
    throw new CliError('notFound', `--org: organization ${options.org} not found`);
  return {
    jobs: await listJobs(ds.manager, {
      organizationId: options.org,
      kind: options.kind,
      status: options.state,
      limit: 1000,
    }),
  };
}

const time = (d: Date | null) => (d ? d.toISOString() : '-');

export function jobsText(jobs: JobView[]): string {
  if (!jobs.length) return 'no jobs';
  const rows = jobs.map((j) => [
    j.kind,
    j.resourceId,
    j.workflowId,
    j.status,
    progressText(j) || '-',
    time(j.requestedAt),
    time(j.finishedAt),
    j.errorCode ?? '-',
  ]);
  return tableText(['KIND', 'RESOURCE', 'WORKFLOW', 'STATUS', 'PROGRESS', 'REQUESTED', 'FINISHED', 'ERROR'], rows);
}

/**
 * Progress as its kind counts it (JobKind.progressUnit), the same in `jobs list` and `jobs watch`: `5/6 documents`,
 * `2 attempts` where there is no total to reach, nothing for a kind that reports none. Never filled in: a success
 * with a page left out stays 5/6.
 */
function progressText({ progress }: JobView): string {
  if (progress.unit === null) return '';
  return `${progress.done}${progress.total === null ? '' : `/${progress.total}`} ${progress.unit}`;
}

/** The share done, where there is a total to reach. */
function percentDone({ progress }: JobView): number | null {
  return progress.unit !== null && progress.total
    ? Math.min(100, Math.floor((progress.done / progress.total) * 100))
    : null;
}

/** The status, and for a purge that waits out its retention when it is due (a week of "0%" said nothing). */
function statusText(job: JobView, dueAt: Date | null): string {
  return dueAt && !job.finishedAt && dueAt.getTime() > Date.now()
    ? `${job.status}, due ${dueAt.toISOString()}`
    : job.status;
}

/** How `jobs watch` shows progress on stderr: a bar on a terminal, a line per change elsewhere, nothing with --json. */
export type WatchDisplay = 'bar' | 'lines' | 'none';

interface ProgressDisplay {
  show(job: JobView, dueAt: Date | null): void;
  stop(): void;
}

/**
 * The bar, which turns line wrap and the cursor off while it draws: on Ctrl-C or SIGTERM it stops first, so the
 * terminal gets them back, and the process then ends by that signal as it would have.
 */
function barDisplay(job: JobView, dueAt: Date | null): ProgressDisplay {
  // a bar where there is a total to reach (known from the start), else the count alone
  const filling = percentDone(job) !== null;
  const bar = new SingleBar({
    format: `${job.kind} ${job.resourceId} ${filling ? '[{bar}] {percentage}% | ' : ''}{progress} | {status}`,
    stream: process.stderr,
    hideCursor: true,
  });
  const barValue = (latest: JobView) => ({
    total: Math.max(latest.progress.total ?? 1, 1),
    value: latest.progress.total === null ? 0 : latest.progress.done,
  });
  const first = barValue(job);
  bar.start(first.total, first.value, { status: statusText(job, dueAt), progress: progressText(job) || '-' });
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  const stop = () => {
    for (const signal of signals) process.removeListener(signal, onSignal);
    bar.stop();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    process.kill(process.pid, signal);
  };
  for (const signal of signals) process.once(signal, onSignal);
  return {
    show(latest, due) {
      const { total, value } = barValue(latest);
      bar.setTotal(total);
      bar.update(value, { status: statusText(latest, due), progress: progressText(latest) || '-' });
    },
    stop,
  };
}

/** Off a terminal (a log, a CI job): one line each time what it would say changes, never the same line again. */
function linesDisplay(): ProgressDisplay {
  let last = '';
  return {
    show(job, dueAt) {
      const percent = percentDone(job);
      const progress = progressText(job);
      const line = `${job.kind} ${job.resourceId} ${statusText(job, dueAt)}${progress ? ` ${progress}` : ''}${percent === null ? '' : ` (${percent}%)`}`;
      if (line !== last) process.stderr.write(`${line}\n`);
      last = line;
    },
    stop() {},
  };
}

export type WatchedJob = JobView | (JobView & { rowRemoved: true });

/** When the purge of a deleted space is due; null for other kinds. */
async function dueAtOf(ds: DataSource, job: JobView, retentionSeconds: number): Promise<Date | null> {
  if (job.kind !== spacePurgeJob.name) return null;
  const space = await ds.manager.findOneBy(Space, { id: job.resourceId });
  return space?.deletedAt ? purgeDueAt(space.deletedAt, retentionSeconds) : null;
}

/**
 * The job `id` names: the job on the row with that id, else the one job about it (a change request's PDF export,
 * a space's import); several are a CliError `ambiguous` that lists them, none `notFound`.
 */
async function jobToWatch(ds: DataSource, id: string): Promise<JobView> {
  const jobs = await findJobsAbout(ds.manager, id);
  const own = jobs.find((job) => job.resourceId === id);
  if (own) return own;
  if (jobs.length === 1) return jobs[0];
  if (!jobs.length) throw new CliError('notFound', `no job was asked for on ${id}, nor on anything it names`);
  throw new CliError(
    'ambiguous',
    `${jobs.length} jobs are about ${id}; watch one by its resource id (the second column):\n${jobsText(jobs)}`,
  );
}

/**
 * Shows the progress of the job `resourceId` names (jobToWatch) on stderr until it ends: resolves with the last state when it
 * succeeded (or removed its own row, as a purge does); a CliError `jobFailed` when it failed or was withdrawn,
 * `notFound` when no job was asked for on that resource. `retentionSeconds`: SPACE_RETENTION_SECONDS, for a
 * purge's due time.
 */
export async function watchJobCommand(
  ds: DataSource,
  resourceId: string,
  options: { display: WatchDisplay; retentionSeconds: number; intervalMs?: number },
): Promise<WatchedJob> {
  let job = await jobToWatch(ds, resourceId);
  const watched = job.resourceId;
  const dueAt = await dueAtOf(ds, job, options.retentionSeconds);
  const display: ProgressDisplay =
    options.display === 'bar'
      ? barDisplay(job, dueAt)
      : options.display === 'lines'
        ? linesDisplay()
        : { show() {}, stop() {} };
  display.show(job, dueAt);
  try {
    for (;;) {
      const latest = await findJob(ds.manager, watched);
      if (!latest) {
        // The job removed its own row (a purge): it is done.
        const done = { ...job, status: 'succeeded' as const, finishedAt: new Date(), errorCode: null };
        display.show(done, null);
        return { ...done, finishedAt: job.finishedAt, rowRemoved: true };
      }
      job = latest;
      display.show(job, dueAt);
      if (job.status === 'succeeded') return job;
      if (job.status === 'failed')
        throw new CliError(
          'jobFailed',
          `job ${job.workflowId} failed: ${job.errorCode}: ${(job.errorMessages ?? []).map((m) => m.message).join('; ')}`,
        );
      if (job.status === 'idle') throw new CliError('jobFailed', `job ${job.workflowId} was withdrawn`);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
    }
  } finally {
    display.stop();
  }
}

/** The domain's refusals as the CLI's exit codes: 404 not found, 409 a job in the wrong state. */
async function operatorAction(action: () => Promise<string>): Promise<string> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw new CliError('notFound', err.message);
    if (err instanceof AppError && err.status === 409) throw new CliError('conflict', err.message);
    throw err;
  }
}

/** `jobs retry`: a new generation of a failed or lost job; the job as `jobs list` shows it afterwards. */
export async function retryJobCommand(work: WorkSource, resourceId: string): Promise<JobView> {
  await operatorAction(() => retryJob(work, resourceId));
  return jobAfter(work.ds, resourceId);
}

/** `jobs cancel`: ends a pending or running job as CANCELLED and cancels its run. */
export async function cancelJobCommand(work: WorkSource, resourceId: string): Promise<JobView> {
  await operatorAction(() => cancelJobRun(work, resourceId));
  return jobAfter(work.ds, resourceId);
}

/** The job as the command left it; a purge that already removed its row is gone. */
async function jobAfter(ds: DataSource, resourceId: string): Promise<JobView> {
  const job = await findJob(ds.manager, resourceId);
  if (!job) throw new CliError('notFound', `the job on ${resourceId} removed its row`);
  return job;
}
