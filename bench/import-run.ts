/**
 * What the import benchmarks (bench/import.ts, bench/zip.ts) share: one import through the real API into a space's
 * live content, with the API and the worker each a child process whose RSS is sampled, while another organization's
 * space takes page writes through the same API at a steady rate (locks stay inside the tenant: their p99 while the
 * import commits is reported). The import's time, phases and workflow history come from its run's row and Temporal.
 */

import type { WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { randomBytes } from 'crypto';
import { loadavg } from 'os';
import { contentImportJob } from '../domain/imports/import-job';
import { jobWorkflowId } from '../domain/jobs/contracts';
import { ImportRun } from '../entities/ImportRun';
import { Revision } from '../entities/Revision';
import { api } from './api-process';
import { resetBenchDatabase } from './database';
import { startJobProcesses } from './job-processes';
import { benchOwner } from './owner';
import { type Summary, summarize } from './stats';

/** Targets at 10,000 pages; the RSS growth over the 1,000-page run is checked by the reader of both. */
export const IMPORT_TARGETS = { importMs: 5 * 60_000, workerRssMiB: 512, otherTenantWriteP99Ms: 200 };

/** One write to the other tenant's space every this many milliseconds (one at a time). */
const WRITE_INTERVAL_MS = 100;

export interface ImportBenchResults {
  date: string;
  machine: Record<string, string | number>;
  source: string;
  pages: number;
  result: { importedResources: number; totalResources: number };
  importMs: number;
  phases: { queuedMs: number; stagingMs: number; commitMs: number; finishMs: number };
  batchPages: number;
  concurrency: number;
  historyEvents: number;
  workerRssMaxMiB: number;
  apiRssMaxMiB: number;
  /** PATCHes of a page in another organization's space, while the import committed and over the whole import */
  otherTenantWrites: { duringCommit: Summary | null; duringImport: Summary | null; failed: number };
  loadAverageAtEnd: number;
  targets: typeof IMPORT_TARGETS;
  met: { time: boolean; workerRss: boolean; otherTenantWrites: boolean; allImported: boolean };
}

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** The start and end of the commitImport activity, from the import's workflow history. */
function commitWindow(events: HistoryEvent[]): { from: number; to: number } {
  const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'commitImport');
  if (!scheduled) throw new Error('the import history holds no commitImport activity');
  const completed = events.find(
    (e) => String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === String(scheduled.eventId),
  );
  const at = (e: HistoryEvent) => tsToMs(e.eventTime);
  return { from: at(scheduled), to: completed ? at(completed) : Date.now() };
}

/** PATCHes one page of the space every WRITE_INTERVAL_MS until stopped; each write's start and latency. */
function steadyWrites(base: string, token: string, spaceId: string, pageId: string) {
  const writes: { at: number; ms: number }[] = [];
  let failed = 0;
  let stopped = false;
  const loop = (async () => {
    for (let n = 0; !stopped; n++) {
      const at = Date.now();
      const res = await api(base, token, 'PATCH', `/v1/spaces/${spaceId}/content/page/${pageId}`, {
        markdown: `Steady write ${n} from the other tenant.\n`,
      }).catch(() => null);
      if (res?.status === 200) writes.push({ at, ms: Date.now() - at });
      else failed++;
      await new Promise((r) => setTimeout(r, Math.max(0, at + WRITE_INTERVAL_MS - Date.now())));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return { writes, failed };
    },
  };
}

/**
 * Imports `url` (served by the caller) with `source` into a fresh space of database `database` (wiped), and
 * measures it. `env` goes to the API and the worker (loopback fetches are allowed for the local source).
 */
export async function measureImport(options: {
  database: string;
  pages: number;
  source: 'website' | 'zip';
  serve: () => Promise<{ url: string; close(): Promise<void> }>;
  log: (message: string) => void;
}): Promise<ImportBenchResults> {
  const { log } = options;
  const { ds, config, database, work, machine } = await resetBenchDatabase(options.database, log);
  const taskQueue = `bench-${options.source}-${randomBytes(4).toString('hex')}`;
  const { token, space } = await benchOwner(ds, 'Import benchmark', 'Imported docs');
  const other = await benchOwner(ds, 'Other tenant', 'Busy handbook');
  const served = await options.serve();

  const env = {
    MYSQL_DATABASE: database,
    TEMPORAL_TASK_QUEUE: taskQueue,
    FETCH_ALLOW_LOOPBACK: 'true',
    IMPORT_WAIT_SECONDS: '1',
  };
  const jobs = await startJobProcesses(config, env);
  const { temporal } = jobs;
  try {
    const written = await api(jobs.apiBase, other.token, 'POST', `/v1/spaces/${other.space.id}/content/pages`, {
      title: 'Steady',
      markdown: 'Written while the other organization imports.\n',
    });
    if (written.status !== 201) throw new Error(`the other tenant's page answered ${written.status}`);
    const writer = steadyWrites(jobs.apiBase, other.token, other.space.id, written.json.id);

    const started = Date.now();
    const res = await api(jobs.apiBase, token, 'POST', `/v1/spaces/${space.id}/content/import`, {
      url: served.url,
      source: options.source,
    });
    if (res.status !== 201 && res.status !== 202)
      throw new Error(`the import answered ${res.status}: ${JSON.stringify(res.json)}`);
    let run = await ds.manager.findOneByOrFail(ImportRun, { spaceId: space.id });
    while (!run.process.finishedAt) {
      await new Promise((r) => setTimeout(r, 200));
      run = await ds.manager.findOneByOrFail(ImportRun, { id: run.id });
    }
    const importMs = Date.now() - started;
    const { writes, failed } = await writer.stop();
    const workerRssMax = jobs.workerRss.stop().maxMiB;
    const apiRssMax = jobs.apiRss.stop().maxMiB;
    if (!run.revisionId)
      throw new Error(
        `the import ended without a revision: ${run.process.errorCode} ${JSON.stringify(run.process.errorMessages)}`,
      );

    const workflowId = jobWorkflowId(contentImportJob, run.id, run.process.generation);
    const history = await (await temporal.getClient()).workflow.getHandle(workflowId).fetchHistory();
    const events = history.events ?? [];
    const commit = commitWindow(events);
    const revision = await ds.manager.findOneByOrFail(Revision, { id: run.revisionId });
    const { requestedAt, startedAt, finishedAt } = run.process;
    const latencies = (from: number, to: number) => {
      const ms = writes.filter((w) => w.at >= from && w.at <= to).map((w) => w.ms);
      return ms.length ? summarize(ms) : null;
    };
    const duringCommit = latencies(commit.from, commit.to);
    const results: ImportBenchResults = {
      date: new Date().toISOString(),
      machine,
      source: options.source,
      pages: options.pages,
      result: { importedResources: run.importedResources, totalResources: run.totalResources },
      importMs,
      phases: {
        queuedMs: startedAt!.getTime() - requestedAt!.getTime(),
        stagingMs: commit.from - startedAt!.getTime(),
        commitMs: revision.createdAt.getTime() - commit.from,
        finishMs: finishedAt!.getTime() - revision.createdAt.getTime(),
      },
      batchPages: config.imports.batchPages,
      concurrency: config.imports.concurrency,
      // every run's, if it continued as new (the commit is in the last)
      historyEvents: (await jobs.historyEventsPerRun(workflowId)).reduce((a, b) => a + b, 0),
      workerRssMaxMiB: workerRssMax,
      apiRssMaxMiB: apiRssMax,
      otherTenantWrites: { duringCommit, duringImport: latencies(started, started + importMs), failed },
      loadAverageAtEnd: Math.round(loadavg()[0] * 100) / 100,
      targets: IMPORT_TARGETS,
      met: {
        time: importMs < IMPORT_TARGETS.importMs,
        workerRss: workerRssMax < IMPORT_TARGETS.workerRssMiB,
        otherTenantWrites: !!duringCommit && duringCommit.p99 < IMPORT_TARGETS.otherTenantWriteP99Ms && !failed,
        allImported: run.importedResources >= options.pages,
      },
    };
    log(
      `imported ${run.importedResources} of ${run.totalResources} in ${importMs} ms (staging ${results.phases.stagingMs}, commit ${results.phases.commitMs} ms); ${results.historyEvents} history events; worker RSS max ${workerRssMax} MiB, API ${apiRssMax} MiB; other tenant's writes during the commit p99 ${duringCommit?.p99 ?? '-'} ms (${duringCommit?.n ?? 0} writes, ${failed} failed)`,
    );
    return results;
  } finally {
    await jobs.stop();
    await served.close();
    await work.temporal.close();
    await ds.destroy();
  }
}

/** The report of one run, in the words of `what` (the source imported). */
export function renderImportReport(r: ImportBenchResults, what: string): string {
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const writes = (s: Summary | null) =>
    s ? `p50 ${s.median} ms, p99 ${s.p99} ms, max ${s.max} ms (${s.n} writes)` : '-';
  return [
    `# ${r.source === 'zip' ? 'Zip' : 'Website'} import benchmark, ${r.pages} pages, ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; load average (1 min) at the end ${r.loadAverageAtEnd}.`,
    '',
    `${what} imported with \`source: ${r.source}\` into a space's live content (search and link index updated in the commit); API and worker each in a child process (IMPORT_BATCH_PAGES=${r.batchPages}, IMPORT_CONCURRENCY=${r.concurrency}). Meanwhile another organization's page is edited through the API every ${WRITE_INTERVAL_MS} ms.`,
    '',
    '| Measure | Value | Target (at 10,000 pages) |',
    '|---|---|---|',
    `| request to the run's end | ${r.importMs} ms | < ${IMPORT_TARGETS.importMs} ms: ${mark(r.met.time)} |`,
    `| of which queued / staging / commit / finish | ${r.phases.queuedMs} / ${r.phases.stagingMs} / ${r.phases.commitMs} / ${r.phases.finishMs} ms | |`,
    `| pages imported / resources processed | ${r.result.importedResources} / ${r.result.totalResources} | ${r.pages} |`,
    `| events in the import's workflow history | ${r.historyEvents} | |`,
    `| worker RSS, maximum (its own process) | ${r.workerRssMaxMiB} MiB | < ${IMPORT_TARGETS.workerRssMiB} MiB, ≤ 64 MiB above the 1,000-page run: ${mark(r.met.workerRss)} (first part) |`,
    `| API RSS, maximum | ${r.apiRssMaxMiB} MiB | |`,
    `| other tenant's page writes while the import commits | ${writes(r.otherTenantWrites.duringCommit)} | p99 < ${IMPORT_TARGETS.otherTenantWriteP99Ms} ms: ${mark(r.met.otherTenantWrites)} |`,
    `| other tenant's page writes over the whole import | ${writes(r.otherTenantWrites.duringImport)}; ${r.otherTenantWrites.failed} failed | |`,
    '',
  ].join('\n');
}
