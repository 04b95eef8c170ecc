/** `cli jobs list` and `cli jobs watch`: jobs as their rows show them (never asked of Temporal). */
import { SingleBar } from 'cli-progress';
import type { DataSource } from 'typeorm';
import { findJob, JobView, LISTED_STATUSES, listJobs } from '../domain/processes/job-queries';
import { JOB_KIND_LIST } from '../domain/processes/jobs';

export const JOBS_USAGE = `jobs list [--org ORGANIZATION_ID] [--kind ${JOB_KIND_LIST.map((k) => k.name).join('|')}] [--state ${LISTED_STATUSES.join('|')}]
  jobs watch RESOURCE_ID`;

export async function listJobsCommand(ds: DataSource, options: { org?: string; kind?: string; state?: string }, fail: (message: string) => never) {
  if (options.kind !== undefined && !JOB_KIND_LIST.some((k) => k.name === options.kind)) fail(`--kind: must be one of ${JOB_KIND_LIST.map((k) => k.name).join(', ')}`);
  const status = options.state as (typeof LISTED_STATUSES)[number] | undefined;
  if (status !== undefined && !LISTED_STATUSES.includes(status)) fail(`--state: must be one of ${LISTED_STATUSES.join(', ')}`);
  return { jobs: await listJobs(ds.manager, { organizationId: options.org, kind: options.kind, status, limit: 1000 }) };
}

const barValue = (job: JobView) => ({ total: Math.max(job.progress.total ?? 1, 1), value: job.finishedAt && !job.errorCode ? Math.max(job.progress.total ?? 1, 1) : job.progress.done });

/**
 * Draws a progress bar (on stderr) until the job on `resourceId` ends: resolves with the last state
 * when it succeeded (or removed its own row, as a purge does), rejects when it failed or was withdrawn.
 */
export async function watchJobCommand(ds: DataSource, resourceId: string, intervalMs = 500): Promise<unknown> {
  let job = await findJob(ds.manager, resourceId);
  if (!job || job.status === 'idle') throw new Error(`no job was asked for on ${resourceId}`);
  const bar = new SingleBar({ format: `${job.kind} ${resourceId} [{bar}] {percentage}% | {value}/{total} | {status}`, stream: process.stderr, noTTYOutput: true, notTTYSchedule: 1000 });
  const first = barValue(job);
  bar.start(first.total, first.value, { status: job.status });
  try {
    for (;;) {
      const latest = await findJob(ds.manager, resourceId);
      if (!latest) {
        // The job removed its own row (a purge): it is done.
        bar.update(bar.getTotal(), { status: 'succeeded' });
        return { ...job, status: 'succeeded', rowRemoved: true };
      }
      job = latest;
      const { total, value } = barValue(job);
      bar.setTotal(total);
      bar.update(value, { status: job.status });
      if (job.status === 'succeeded') return job;
      if (job.status === 'failed') throw new Error(`job ${job.workflowId} failed: ${job.errorCode}: ${(job.errorMessages ?? []).map((m) => m.message).join('; ')}`);
      if (job.status === 'idle') throw new Error(`job ${job.workflowId} was withdrawn`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  } finally {
    bar.stop();
  }
}
