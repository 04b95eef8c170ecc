/** Reading jobs from their rows, across every kind: what `cli jobs list` and `cli jobs watch` show. */
import { type FindOptionsWhere, IsNull, Not } from 'typeorm';
import type { JobState } from '../../entities/JobState';
import type { Db } from '../../platform/db/transactions';
import { jobWorkflowId } from './contracts';
import { JobRow, JobStatus, jobState, jobStatus } from './job-kind';
import { JOB_KINDS, jobKindNamed } from './kinds';

export interface JobView {
  kind: string;
  resourceId: string;
  organizationId: string;
  spaceId: string | null;
  workflowId: string;
  status: JobStatus;
  /** The kind's public status: the word its resource's API answers (JobKind.publicStatus). */
  publicStatus: string;
  generation: number;
  runId: string | null;
  requestedAt: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** In the kind's unit (JobKind.progressUnit; null: it reports none). */
  progress: { done: number; total: number | null; unit: string | null };
  errorCode: string | null;
  errorMessages: JobState['errorMessages'];
}

/** The row conditions of each status (idle rows, never asked for work, are not jobs): the lists' and the gauge's. */
export const JOB_STATUS_WHERE: Record<Exclude<JobStatus, 'idle'>, FindOptionsWhere<JobState>> = {
  pending: { requestedAt: Not(IsNull()), startedAt: IsNull(), finishedAt: IsNull() },
  running: { requestedAt: Not(IsNull()), startedAt: Not(IsNull()), finishedAt: IsNull() },
  succeeded: { requestedAt: Not(IsNull()), finishedAt: Not(IsNull()), errorCode: IsNull() },
  failed: { requestedAt: Not(IsNull()), finishedAt: Not(IsNull()), errorCode: Not(IsNull()) },
};

export const LISTED_STATUSES = Object.keys(JOB_STATUS_WHERE) as Array<keyof typeof JOB_STATUS_WHERE>;

type AnyKind = (typeof JOB_KINDS)[number];

function view(kind: AnyKind, row: { id: string; organizationId: string }): JobView {
  const state = jobState(kind, row);
  return {
    kind: kind.name,
    resourceId: row.id,
    organizationId: row.organizationId,
    spaceId: kind.spaceId(row),
    workflowId: jobWorkflowId(kind, row.id, state.generation),
    status: jobStatus(state),
    publicStatus: kind.publicStatus(state),
    generation: state.generation,
    runId: state.runId,
    requestedAt: state.requestedAt,
    startedAt: state.startedAt,
    finishedAt: state.finishedAt,
    progress: { done: state.progressDone, total: state.progressTotal, unit: kind.progressUnit },
    errorCode: state.errorCode,
    errorMessages: state.errorMessages,
  };
}

/** Jobs by most recent request first, at most `limit`, narrowed by organization, kind and status. */
export async function listJobs(
  db: Db,
  filters: { organizationId?: string; kind?: string; status?: Exclude<JobStatus, 'idle'>; limit: number },
): Promise<JobView[]> {
  const kinds = filters.kind ? [jobKindNamed(filters.kind)].filter((k): k is AnyKind => !!k) : JOB_KINDS;
  const states = filters.status ? [JOB_STATUS_WHERE[filters.status]] : Object.values(JOB_STATUS_WHERE);
  const jobs: JobView[] = [];
  for (const kind of kinds) {
    const rows = await db.find(kind.entity, {
      where: states.map((state) => ({
        ...(filters.organizationId ? { organizationId: filters.organizationId } : {}),
        [kind.state]: state,
      })),
      order: { [kind.state]: { requestedAt: 'DESC' } },
      take: filters.limit,
    });
    jobs.push(...rows.map((row) => view(kind, row)));
  }
  return jobs.sort(newestRequestFirst).slice(0, filters.limit);
}

const newestRequestFirst = (a: JobView, b: JobView) =>
  (b.requestedAt?.getTime() ?? 0) - (a.requestedAt?.getTime() ?? 0);

/** How many jobs about one id are listed at most (a space imported into every day for years has many). */
const ABOUT_LIMIT = 100;

/**
 * The jobs a user may mean by `id`, newest request first: the job on the row with that id, and those on rows that
 * name it in one of their kind's `askedAbout` columns (a change request's PDF exports, a space's imports). Rows never
 * asked for work (idle) are not jobs.
 */
export async function findJobsAbout(db: Db, id: string): Promise<JobView[]> {
  const jobs: JobView[] = [];
  for (const kind of JOB_KINDS) {
    const columns = ['id', ...kind.askedAbout];
    const rows = await db.find(kind.entity, { where: columns.map((column) => ({ [column]: id })), take: ABOUT_LIMIT });
    jobs.push(...rows.map((row) => view(kind, row)).filter((job) => job.status !== 'idle'));
  }
  return jobs.sort(newestRequestFirst).slice(0, ABOUT_LIMIT);
}

/** The row with job columns that has id `resourceId`, with its kind; null if no row of any kind has that id. */
export async function findJobRow(db: Db, resourceId: string): Promise<{ kind: AnyKind; row: JobRow } | null> {
  for (const kind of JOB_KINDS) {
    const row = await db.findOneBy(kind.entity, { id: resourceId });
    if (row) return { kind, row };
  }
  return null;
}

/** The job on resource `resourceId`, of whichever kind; null if no row of any kind has that id. */
export async function findJob(db: Db, resourceId: string): Promise<JobView | null> {
  const found = await findJobRow(db, resourceId);
  return found && view(found.kind, found.row);
}
