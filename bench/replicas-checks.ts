/**
 * What the replicas benchmark reads back once the load is over: the job rows (every one ended, its progress at its
 * total), the Temporal executions of its task queue (one per job generation, each completed), and the counters a
 * write keeps against the rows they count and the answers the load received.
 */
import type { DataSource } from 'typeorm';
import { jobState, jobStatus } from '../domain/jobs/job-kind';
import { JOB_KINDS } from '../domain/jobs/kinds';
import type { TemporalGateway } from '../platform/temporal/gateway';
import type { Expected } from './replicas-mixed';

interface JobRowFigures {
  rows: number;
  succeeded: number;
  failed: Array<{ id: string; code: string | null; messages: unknown }>;
  unfinished: string[];
  /** rows that ended with a progress total their done count does not reach */
  progressShort: Array<{ id: string; done: number; total: number }>;
}

/** Kinds whose progress has a total a successful run reaches (an import may leave a page out and succeed). */
const PROGRESS_REACHES_TOTAL = new Set(['pdf-export', 'translation-run']);

/** Every row of every job kind whose work was ever asked for, by kind. */
export async function jobRows(ds: DataSource): Promise<Record<string, JobRowFigures>> {
  const figures: Record<string, JobRowFigures> = {};
  for (const kind of JOB_KINDS) {
    const f: JobRowFigures = { rows: 0, succeeded: 0, failed: [], unfinished: [], progressShort: [] };
    for (const row of await ds.manager.find(kind.entity)) {
      const state = jobState(kind, row);
      const status = jobStatus(state);
      if (status === 'idle') continue;
      f.rows++;
      if (status === 'succeeded') f.succeeded++;
      else if (status === 'failed') f.failed.push({ id: row.id, code: state.errorCode, messages: state.errorMessages });
      else f.unfinished.push(row.id);
      if (
        status === 'succeeded' &&
        PROGRESS_REACHES_TOTAL.has(kind.name) &&
        state.progressTotal !== null &&
        state.progressDone !== state.progressTotal
      )
        f.progressShort.push({ id: row.id, done: state.progressDone, total: state.progressTotal });
    }
    figures[kind.name] = f;
  }
  return figures;
}

/** Waits until no job row is pending or running, or `timeoutMs` passed; the rows as last read. */
export async function jobsEnded(ds: DataSource, timeoutMs: number): Promise<Record<string, JobRowFigures>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const figures = await jobRows(ds);
    const open = Object.values(figures).reduce((n, f) => n + f.unfinished.length, 0);
    if (open === 0 || Date.now() > until) return figures;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

interface WorkflowFigures {
  workflows: number;
  /** executions in all, a continued-as-new chain counting each of its runs */
  executions: number;
  /** workflow ids with more than one execution that is not a continued-as-new run */
  startedTwice: string[];
  /** the last execution of a workflow id, when it did not complete */
  notCompleted: Array<{ workflowId: string; status: string }>;
  byType: Record<string, number>;
}

/** Every workflow the benchmark's task queue ran, from Temporal's visibility. */
export async function workflowsOfQueue(temporal: TemporalGateway, taskQueue: string): Promise<WorkflowFigures> {
  const client = await temporal.getClient();
  const byId = new Map<string, Array<{ status: string; type: string }>>();
  let executions = 0;
  for await (const w of client.workflow.list({ query: `TaskQueue = "${taskQueue}"` })) {
    executions++;
    const runs = byId.get(w.workflowId) ?? [];
    runs.push({ status: w.status.name, type: w.type });
    byId.set(w.workflowId, runs);
  }
  const figures: WorkflowFigures = { workflows: byId.size, executions, startedTwice: [], notCompleted: [], byType: {} };
  for (const [workflowId, runs] of byId) {
    const ends = runs.filter((r) => r.status !== 'CONTINUED_AS_NEW');
    if (ends.length !== 1) figures.startedTwice.push(workflowId);
    for (const end of ends)
      if (end.status !== 'COMPLETED') figures.notCompleted.push({ workflowId, status: end.status });
    figures.byType[runs[0].type] = (figures.byType[runs[0].type] ?? 0) + 1;
  }
  return figures;
}

interface CounterMismatch {
  what: string;
  id: string;
  stored: number;
  rows: number;
  expected?: number;
}

/**
 * Each space's stored counters against its rows, and, for the spaces the load wrote, against what its 2xx answers
 * make; each comment's replies counter against its replies; the reactions against those the load added.
 */
export async function counterMismatches(
  ds: DataSource,
  organizationId: string,
  expected: Expected,
  commentIds: string[],
): Promise<{ spaces: number; comments: number; reactions: number; mismatches: CounterMismatch[] }> {
  const mismatches: CounterMismatch[] = [];
  const spaces: Array<Record<string, string | number>> = await ds.query(
    `SELECT s.id, s.changeRequestsCount, s.changeRequestsOpenCount, s.changeRequestsDraftCount, s.openCommentsCount,
            (SELECT COUNT(*) FROM change_requests c WHERE c.spaceId = s.id) AS changeRequests,
            (SELECT COUNT(*) FROM change_requests c WHERE c.spaceId = s.id AND c.status = 'open') AS changeRequestsOpen,
            (SELECT COUNT(*) FROM change_requests c WHERE c.spaceId = s.id AND c.status = 'draft') AS changeRequestsDraft,
            (SELECT COUNT(*) FROM comments m WHERE m.spaceId = s.id AND m.changeRequestId IS NULL AND m.status = 'open') AS openComments
       FROM spaces s WHERE s.organizationId = ?`,
    [organizationId],
  );
  for (const s of spaces) {
    const id = String(s.id);
    const pairs: Array<[string, string, string, number | undefined]> = [
      ['changeRequests', 'changeRequestsCount', 'changeRequests', expected.changeRequestsBySpace.get(id) ?? 0],
      [
        'changeRequestsOpen',
        'changeRequestsOpenCount',
        'changeRequestsOpen',
        (expected.changeRequestsBySpace.get(id) ?? 0) - (expected.mergedBySpace.get(id) ?? 0),
      ],
      ['changeRequestsDraft', 'changeRequestsDraftCount', 'changeRequestsDraft', 0],
      ['openComments', 'openCommentsCount', 'openComments', expected.openCommentsBySpace.get(id) ?? 0],
    ];
    for (const [what, storedColumn, rowsColumn, want] of pairs) {
      const stored = Number(s[storedColumn]);
      const rows = Number(s[rowsColumn]);
      if (stored !== rows || rows !== want) mismatches.push({ what, id, stored, rows, expected: want });
    }
  }
  const replies: Array<{ id: string; replies: number; rows: number }> = commentIds.length
    ? await ds.query(
        `SELECT m.id, m.replies, (SELECT COUNT(*) FROM comment_replies r WHERE r.commentId = m.id) AS \`rows\`
           FROM comments m WHERE m.id IN (?)`,
        [commentIds],
      )
    : [];
  for (const r of replies) {
    const want = expected.repliesByComment.get(r.id) ?? 0;
    if (Number(r.replies) !== Number(r.rows) || Number(r.rows) !== want)
      mismatches.push({ what: 'replies', id: r.id, stored: Number(r.replies), rows: Number(r.rows), expected: want });
  }
  const reactionRows: Array<{ targetId: string; emoji: string; userId: string }> = commentIds.length
    ? await ds.query(
        `SELECT targetId, emoji, userId FROM comment_reactions WHERE targetKind = 'comment' AND targetId IN (?)`,
        [commentIds],
      )
    : [];
  const found = new Set(reactionRows.map((r) => `${r.targetId} ${r.emoji} ${r.userId}`));
  const missing = [...expected.reactions].filter((k) => !found.has(k));
  const extra = [...found].filter((k) => !expected.reactions.has(k));
  if (missing.length || extra.length)
    mismatches.push({
      what: 'reactions',
      id: `${missing.length} missing, ${extra.length} extra`,
      stored: found.size,
      rows: found.size,
      expected: expected.reactions.size,
    });
  return { spaces: spaces.length, comments: replies.length, reactions: found.size, mismatches };
}
