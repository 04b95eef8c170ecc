/**
 * Helpers of the fault tests: the statements of the job machinery a TcpProxy holds,
 * a job's row read by kind, waiting for it to end, and what a run's history says of its activities'
 * attempts.
 */
import type { Client } from '@temporalio/client';
import type { DataSource, FindOptionsWhere } from 'typeorm';
import type { JobWorkflowName } from '../../domain/jobs/contracts';
import { JobKind, JobRow, JobStatus, jobState, jobStatus } from '../../domain/jobs/job-kind';
import type { JobState } from '../../entities/JobState';

/** A kind over any row type (each kind's row type differs, as in JOB_KINDS). */
export type AnyJobKind = JobKind<any, JobWorkflowName>;

const tableOf = (ds: DataSource, kind: AnyJobKind) => ds.getMetadata(kind.entity).tableName;
/** `WHERE id = '<id>'`, of any row when `id` is null. */
const byId = (id: string | null) => (id === null ? /WHERE `id` = '[^']*'$/ : `WHERE \`id\` = '${id}'`);
const has = (sql: string, part: string | RegExp) => (typeof part === 'string' ? sql.includes(part) : part.test(sql));

/**
 * The UPDATE that begins a run on the row, of any row of the kind when `id` is null (its first write of
 * startedAt; progress comes later).
 */
export function beginStatement(ds: DataSource, kind: AnyJobKind, id: string | null): (sql: string) => boolean {
  const [table, p] = [tableOf(ds, kind), kind.state];
  return (sql) =>
    sql.startsWith(`UPDATE \`${table}\` SET \`${p}Generation\``) &&
    sql.includes(`\`${p}StartedAt\` = '`) &&
    sql.includes(`\`${p}FinishedAt\` = NULL`) &&
    has(sql, byId(id));
}

/** The UPDATE that ends a run on the row as succeeded (finishJob). */
export function finishStatement(ds: DataSource, kind: AnyJobKind, id: string): (sql: string) => boolean {
  const [table, p] = [tableOf(ds, kind), kind.state];
  return (sql) =>
    sql.startsWith(`UPDATE \`${table}\` SET \`${p}Generation\``) &&
    sql.includes(`\`${p}FinishedAt\` = '`) &&
    sql.includes(`\`${p}ErrorCode\` = NULL`) &&
    has(sql, byId(id));
}

/** A statement that starts with `start` and names `id` as a value. */
export function statementOn(start: string, id: string): (sql: string) => boolean {
  return (sql) => sql.startsWith(start) && sql.includes(`'${id}'`);
}

export interface JobRowState {
  /** `gone`: the row no longer exists (a purged space). */
  status: JobStatus | 'gone';
  state: JobState | null;
}

export async function jobRowState(ds: DataSource, kind: AnyJobKind, id: string): Promise<JobRowState> {
  const row = await ds.manager.findOneBy(kind.entity, { id } as FindOptionsWhere<JobRow>);
  if (!row) return { status: 'gone', state: null };
  const state = jobState(kind, row);
  return { status: jobStatus(state), state };
}

/** Polls the row until its job of `generation` (or later) is no longer active, or the row is gone. */
export async function jobEnded(
  ds: DataSource,
  kind: AnyJobKind,
  id: string,
  options: { generation?: number; timeoutMs?: number } = {},
): Promise<JobRowState & { at: number }> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const row = await jobRowState(ds, kind, id);
    const ended = row.status === 'gone' || row.status === 'succeeded' || row.status === 'failed';
    if (ended && (row.state?.generation ?? Infinity) >= (options.generation ?? 0)) return { ...row, at: Date.now() };
    if (Date.now() > deadline)
      throw new Error(`${kind.name} ${id} did not end in time: ${JSON.stringify(row.state ?? row.status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ActivityAttempts {
  activity: string;
  /** The attempt the history records last (Temporal keeps only the last attempt's start). */
  attempts: number;
  outcome: 'completed' | 'failed' | 'timed out' | 'cancelled' | 'open';
  /** When the last attempt started (ms since the epoch). */
  lastStartedAt: number | null;
  /** When the activity was scheduled: its retry budget (scheduleToCloseTimeout) counts from then. */
  scheduledAt: number | null;
}

const millis = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  t ? Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6) : null;

/** Every activity a run scheduled, with its attempts and how it ended, in order. */
export async function activityAttempts(client: Client, workflowId: string): Promise<ActivityAttempts[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const byScheduled = new Map<string, ActivityAttempts>();
  for (const event of history.events ?? []) {
    const id = String(event.eventId);
    if (event.activityTaskScheduledEventAttributes) {
      byScheduled.set(id, {
        activity: event.activityTaskScheduledEventAttributes.activityType?.name ?? '?',
        attempts: 0,
        outcome: 'open',
        lastStartedAt: null,
        scheduledAt: millis(event.eventTime),
      });
      continue;
    }
    const ref = (attrs: { scheduledEventId?: unknown } | null | undefined) =>
      attrs ? byScheduled.get(String(attrs.scheduledEventId)) : undefined;
    const started = ref(event.activityTaskStartedEventAttributes);
    if (started) {
      started.attempts = event.activityTaskStartedEventAttributes!.attempt ?? 1;
      started.lastStartedAt = millis(event.eventTime);
    }
    const completed = ref(event.activityTaskCompletedEventAttributes);
    if (completed) completed.outcome = 'completed';
    const failed = ref(event.activityTaskFailedEventAttributes);
    if (failed) failed.outcome = 'failed';
    const timedOut = ref(event.activityTaskTimedOutEventAttributes);
    if (timedOut) timedOut.outcome = 'timed out';
    const cancelled = ref(event.activityTaskCanceledEventAttributes);
    if (cancelled) cancelled.outcome = 'cancelled';
  }
  return [...byScheduled.values()];
}

const signed = (n: number) => (n >= 0 ? `+${n}` : String(n));

/**
 * `beginJob×1 ✓, saveOpenAPISpecVersion×3 ✗, failJob×9 ✓`: a run's activities for a report line; with
 * `since`, an activity attempted more than once also says when it was scheduled and when its last attempt
 * started (`scheduled @-41200 ms, last @+2310 ms`).
 */
export function describeAttempts(attempts: ActivityAttempts[], since?: number): string {
  const mark = { completed: '✓', failed: '✗', 'timed out': '⧖', cancelled: '⊘', open: '…' } as const;
  const at = (a: ActivityAttempts) =>
    since !== undefined && a.attempts > 1 && a.lastStartedAt && a.scheduledAt
      ? ` (scheduled @${signed(a.scheduledAt - since)} ms, last @${signed(a.lastStartedAt - since)} ms)`
      : '';
  return attempts.map((a) => `${a.activity}×${a.attempts} ${mark[a.outcome]}${at(a)}`).join(', ');
}
