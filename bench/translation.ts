/**
 * The translation benchmark (docs/benchmarks.md). A space of 1,000 documentation pages (`--pages N`, a multiple of
 * 25; the content benchmark's corpus: about 1.5 KB each, headings, links by id and URL, some code) is translated
 * with the `pseudo` provider through the real API and worker, each a child process whose RSS is sampled, on a
 * private task queue. It times the full run from the request to the completed run, then `--runs N` (3) incremental
 * runs, each after a commit that edits 10 pages, which must send exactly those pages; and counts the events of each
 * run's workflow history. The worker's peak must stay under 512 MiB and, at another size, within 64 MiB of the latest
 * 1,000-page result's. Its own database (docs_bench_translation, wiped at start). Writes
 * bench/results/translation-<N>p-<date>.json and .md. Run with `bash scripts/bench.sh translation [--pages N]`.
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import type { DataSource } from 'typeorm';
import { commitToHead } from '../domain/content/heads';
import { jobWorkflowId } from '../domain/jobs/contracts';
import { translationRunJob } from '../domain/translations/run-job';
import { Translation } from '../entities/Translation';
import { inTransaction } from '../platform/db/transactions';
import { api } from './api-process';
import { Random, writePage } from './corpus';
import { resetBenchDatabase } from './database';
import { startJobProcesses } from './job-processes';
import { benchOwner } from './owner';
import { writeBenchResults } from './results';
import { numberArgument, pagesArgument, sizedName } from './size';
import { percentile } from './stats';

const PAGES_PER_CHAPTER = 25;
const PAGES = pagesArgument(1000, PAGES_PER_CHAPTER);
const RUNS = numberArgument('--runs', 3);
const PAGES_PER_COMMIT = 500;
const EDITED_PER_RUN = 10;
const TARGETS = { fullMs: 300_000, incrementalMs: 30_000, workerRssMiB: 512, workerRssAboveReferenceMiB: 64 };
const REFERENCE_PAGES = 1000;

const log = (message: string): void => void process.stdout.write(`[bench:translation] ${message}\n`);

/** The translation's row once its run `run` (1-based) has completed; throws on a failed run. */
async function untilFinished(ds: DataSource, id: string, run: number): Promise<Translation> {
  for (const start = Date.now(); Date.now() - start < 1_800_000; await new Promise((r) => setTimeout(r, 100))) {
    const row = await ds.manager.findOneByOrFail(Translation, { id });
    if (row.run.errorCode)
      throw new Error(`the run failed: ${row.run.errorCode} ${JSON.stringify(row.run.errorMessages)}`);
    if (row.runs >= run && row.run.finishedAt) return row;
  }
  throw new Error('the run did not finish in 30 minutes');
}

/** The worker's peak in the latest result at REFERENCE_PAGES (bench/results), which a larger run must stay near. */
function referenceWorkerRssMiB(): number | null {
  const dir = path.join(__dirname, '..', '..', 'bench', 'results');
  const stem = `${sizedName('translation', REFERENCE_PAGES)}-`;
  const latest = readdirSync(dir)
    .filter((f) => f.startsWith(stem) && f.endsWith('.json'))
    .sort()
    .pop();
  return latest ? (JSON.parse(readFileSync(path.join(dir, latest), 'utf8')).workerRssMaxMiB ?? null) : null;
}

interface RunFigures {
  totalMs: number;
  queuedMs: number;
  jobMs: number;
  pages: number;
  words: number;
  /** per run of the workflow (more than one once it continued as new), the first run first */
  historyEvents: number[];
}

async function main(): Promise<void> {
  const { ds, config: base, database, work, machine } = await resetBenchDatabase('docs_bench_translation', log);
  const taskQueue = `bench-translation-${randomBytes(4).toString('hex')}`;
  const config = { ...base, temporal: { ...base.temporal, taskQueue } };
  const { user, token, organizationId, space } = await benchOwner(ds, 'Translation benchmark', 'Product handbook');
  const commit = (edit: Parameters<typeof commitToHead>[3]) =>
    inTransaction(work, (db) =>
      commitToHead(
        db,
        { kind: 'space', spaceId: space.id },
        { type: 'edits', createdById: user.id, appBaseUrl: config.appBaseUrl },
        edit,
      ),
    );
  const rnd = new Random(7);
  const pageIds: string[] = [];
  const written = Date.now();
  for (let from = 0; from < PAGES; from += PAGES_PER_COMMIT) {
    await commit(async (editor) => {
      for (let c = from; c < Math.min(PAGES, from + PAGES_PER_COMMIT); c += PAGES_PER_CHAPTER) {
        const chapterId = await editor.createPage(writePage(rnd, { pageIds, paths: [] }));
        pageIds.push(chapterId);
        for (let p = 1; p < PAGES_PER_CHAPTER; p++)
          pageIds.push(await editor.createPage(writePage(rnd, { pageIds, paths: [] }), { parent: chapterId }));
      }
    });
  }
  const writtenMs = Date.now() - written;
  log(`space of ${pageIds.length} pages written in ${writtenMs} ms`);

  const env = { MYSQL_DATABASE: database, TEMPORAL_TASK_QUEUE: taskQueue, TRANSLATION_PROVIDER: 'pseudo' };
  const jobs = await startJobProcesses(config, env);
  try {
    const historyEvents = (id: string, generation: number) =>
      jobs.historyEventsPerRun(jobWorkflowId(translationRunJob, id, generation));
    const figures = async (id: string, run: number, requestedAt: number): Promise<RunFigures> => {
      const row = await untilFinished(ds, id, run);
      return {
        totalMs: row.run.finishedAt!.getTime() - requestedAt,
        queuedMs: row.run.startedAt!.getTime() - row.run.requestedAt!.getTime(),
        jobMs: row.run.finishedAt!.getTime() - row.run.startedAt!.getTime(),
        pages: row.latestPages,
        words: row.latestWords,
        historyEvents: await historyEvents(id, row.run.generation),
      };
    };

    let t = Date.now();
    const created = await api(jobs.apiBase, token, 'POST', `/v1/orgs/${organizationId}/translations`, {
      language: 'fr',
      source: { space: space.id, language: 'en' },
    });
    if (created.status !== 201) throw new Error(`the translation answered ${created.status}`);
    const id = created.json.id as string;
    const full = await figures(id, 1, t);
    log(
      `full run: ${full.pages} pages, ${full.words} words in ${full.totalMs} ms (queued ${full.queuedMs}, job ${full.jobMs}), ${full.historyEvents.join(' + ')} history events`,
    );

    const incremental: RunFigures[] = [];
    for (let r = 0; r < RUNS; r++) {
      const edited = Array.from({ length: EDITED_PER_RUN }, (_, i) => pageIds[(r * 7919 + i * 997) % PAGES]);
      await commit(async (editor) => {
        for (const [i, pageId] of edited.entries())
          await editor.updatePage(pageId, {
            markdown: `${writePage(new Random(1000 * r + i), { pageIds, paths: [] }).markdown}`,
          });
      });
      t = Date.now();
      const ran = await api(jobs.apiBase, token, 'POST', `/v1/orgs/${organizationId}/translations/${id}/run`);
      if (ran.status >= 300) throw new Error(`the run request answered ${ran.status}`);
      incremental.push(await figures(id, r + 2, t));
      const last = incremental[r];
      log(
        `incremental run ${r + 1} after ${EDITED_PER_RUN} edited pages: ${last.pages} pages, ${last.words} words in ${last.totalMs} ms (job ${last.jobMs}), ${last.historyEvents.join(' + ')} history events`,
      );
    }

    const incrementalMs = percentile(
      incremental.map((i) => i.totalMs),
      50,
    );
    const workerRssMaxMiB = jobs.workerRss.stop().maxMiB;
    const reference = PAGES === REFERENCE_PAGES ? null : referenceWorkerRssMiB();
    const results = {
      date: new Date().toISOString(),
      machine,
      space: { pages: PAGES, writtenMs },
      full,
      incremental,
      incrementalMedianMs: incrementalMs,
      workerRssMaxMiB,
      referenceWorkerRssMaxMiB: reference,
      apiRssMaxMiB: jobs.apiRss.stop().maxMiB,
      targets: TARGETS,
      met: {
        full: full.totalMs < TARGETS.fullMs && full.pages === PAGES,
        incremental: incrementalMs < TARGETS.incrementalMs && incremental.every((i) => i.pages === EDITED_PER_RUN),
        workerRss:
          workerRssMaxMiB < TARGETS.workerRssMiB &&
          (reference === null || workerRssMaxMiB - reference <= TARGETS.workerRssAboveReferenceMiB),
      },
    };
    log(`worker RSS max ${results.workerRssMaxMiB} MiB, API ${results.apiRssMaxMiB} MiB`);
    writeBenchResults(sizedName('translation', PAGES), results, renderReport(results), log);
    if (!Object.values(results.met).every(Boolean)) process.exitCode = 1;
  } finally {
    await jobs.stop();
    await work.temporal.close();
    await ds.destroy();
  }
}

function renderReport(r: {
  date: string;
  machine: Record<string, string | number>;
  space: { pages: number; writtenMs: number };
  full: RunFigures;
  incremental: RunFigures[];
  incrementalMedianMs: number;
  workerRssMaxMiB: number;
  referenceWorkerRssMaxMiB: number | null;
  apiRssMaxMiB: number;
  met: { full: boolean; incremental: boolean; workerRss: boolean };
}): string {
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const runs = r.incremental;
  return [
    `# Translation benchmark, ${r.space.pages} pages, ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    `A space of ${r.space.pages} pages (the content benchmark's corpus, about 1.5 KB each), written in ${r.space.writtenMs} ms; translated with \`pseudo\` through the API and the worker, each in a child process; default batching (TRANSLATION_PAGES_PER_STEP, TRANSLATION_BATCH_SEGMENTS, TRANSLATION_BATCH_CHARS).`,
    '',
    '| Measure | Value | Target |',
    '|---|---|---|',
    `| full run: request to completed run (queued + job) | ${r.full.totalMs} ms (${r.full.queuedMs} + ${r.full.jobMs}); ${r.full.pages} pages, ${r.full.words} words | < ${TARGETS.fullMs} ms: ${mark(r.met.full)} |`,
    `| incremental run after ${EDITED_PER_RUN} edited pages, median of ${runs.length} | ${r.incrementalMedianMs} ms (${runs.map((i) => i.totalMs).join(', ')}); pages sent ${runs.map((i) => i.pages).join(', ')} | < ${TARGETS.incrementalMs} ms, exactly the edited pages: ${mark(r.met.incremental)} |`,
    `| events in the workflow's history (per run of a workflow that continued as new) | full ${r.full.historyEvents.join(' + ')}; incremental ${runs.map((i) => i.historyEvents.join(' + ')).join(', ')} | |`,
    `| worker RSS, maximum (its own process) | ${r.workerRssMaxMiB} MiB${r.referenceWorkerRssMaxMiB === null ? '' : ` (${REFERENCE_PAGES} pages, latest result: ${r.referenceWorkerRssMaxMiB} MiB)`} | < ${TARGETS.workerRssMiB} MiB${r.referenceWorkerRssMaxMiB === null ? '' : `, at most ${TARGETS.workerRssAboveReferenceMiB} MiB above the ${REFERENCE_PAGES}-page peak`}: ${mark(r.met.workerRss)} |`,
    `| API RSS, maximum | ${r.apiRssMaxMiB} MiB | |`,
    '',
  ].join('\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
