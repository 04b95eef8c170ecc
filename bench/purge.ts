/**
 * The purge benchmark (docs/benchmarks.md): a space of 1,000 pages (`--pages N`) and as many revisions again as a
 * tenth of its pages (`--revisions N`), with its search rows and links, is deleted through the real API; the
 * `space-purge` job runs on the real worker, each a child process whose RSS is sampled, with
 * SPACE_RETENTION_SECONDS=0 so it starts at once. It measures the time from the deletion to the space's row being
 * gone, the worker's and the API's peak RSS, and the events of the purge's workflow history. Its own database
 * (docs_bench_purge, wiped at start). Writes bench/results/purge-<N>p-<date>.json and .md. Run with
 * `bash scripts/bench.sh purge [--pages N] [--revisions N]`.
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { commitToHead } from '../domain/content/heads';
import { jobWorkflowId } from '../domain/jobs/contracts';
import { spacePurgeJob } from '../domain/spaces/purge-job';
import { Space } from '../entities/Space';
import { inTransaction } from '../platform/db/transactions';
import { api } from './api-process';
import { resetBenchDatabase } from './database';
import { startJobProcesses } from './job-processes';
import { benchOwner } from './owner';
import { writeBenchResults } from './results';
import { numberArgument, pagesArgument, sizedName } from './size';

const PAGES = pagesArgument(1000, 100);
const REVISIONS = numberArgument('--revisions', PAGES / 10);
const PAGES_PER_COMMIT = 500;
const TARGETS = { purgeMs: 120_000 };

const log = (message: string): void => void process.stdout.write(`[bench:purge] ${message}\n`);

const pageMarkdown = (n: number) =>
  `Page ${n} of the handbook links [its neighbour](page-${n + 1}) and explains one setting.\n\n## Details\n\nThe setting ${n} takes a value between 1 and 100.`;

async function main(): Promise<void> {
  const { ds, config: base, database, work, machine } = await resetBenchDatabase('docs_bench_purge', log);
  const taskQueue = `bench-purge-${randomBytes(4).toString('hex')}`;
  const config = { ...base, temporal: { ...base.temporal, taskQueue } };
  const { user, token, space } = await benchOwner(ds, 'Purge benchmark', 'Doomed handbook');
  const head = { kind: 'space' as const, spaceId: space.id };
  const commit = (edit: Parameters<typeof commitToHead>[3]) =>
    inTransaction(work, (db) =>
      commitToHead(db, head, { type: 'edits', createdById: user.id, appBaseUrl: config.appBaseUrl }, edit),
    );
  const started = Date.now();
  const pageIds: string[] = [];
  for (let from = 0; from < PAGES; from += PAGES_PER_COMMIT) {
    await commit(async (editor) => {
      for (let n = from; n < Math.min(PAGES, from + PAGES_PER_COMMIT); n++)
        pageIds.push(await editor.createPage({ title: `Page ${n}`, markdown: pageMarkdown(n) }));
    });
  }
  for (let r = 0; r < REVISIONS; r++) {
    const n = (r * 37) % PAGES;
    await commit((editor) => editor.updatePage(pageIds[n], { markdown: `${pageMarkdown(n)}\n\nRevision ${r}.` }));
  }
  const [rows] = await ds.query(
    'SELECT (SELECT COUNT(*) FROM revisions WHERE spaceId = ?) AS revisions, (SELECT COUNT(*) FROM search_sections WHERE spaceId = ?) AS sections',
    [space.id, space.id],
  );
  log(
    `space of ${PAGES} pages, ${rows.revisions} revisions, ${rows.sections} search sections in ${Date.now() - started} ms`,
  );

  const env = { MYSQL_DATABASE: database, TEMPORAL_TASK_QUEUE: taskQueue, SPACE_RETENTION_SECONDS: '0' };
  const jobs = await startJobProcesses(config, env);
  try {
    const t = Date.now();
    const deleted = await api(jobs.apiBase, token, 'DELETE', `/v1/spaces/${space.id}`);
    if (deleted.status !== 204) throw new Error(`the deletion answered ${deleted.status}`);
    while (await ds.manager.existsBy(Space, { id: space.id })) await new Promise((r) => setTimeout(r, 200));
    const purgeMs = Date.now() - t;
    const workflowId = jobWorkflowId(spacePurgeJob, space.id, 1);
    const results = {
      date: new Date().toISOString(),
      machine,
      space: { pages: PAGES, revisions: Number(rows.revisions), searchSections: Number(rows.sections) },
      purgeMs,
      historyEvents: (await jobs.historyEventsPerRun(workflowId)).reduce((a, b) => a + b, 0),
      workerRssMaxMiB: jobs.workerRss.stop().maxMiB,
      apiRssMaxMiB: jobs.apiRss.stop().maxMiB,
      targets: TARGETS,
      met: { purge: purgeMs < TARGETS.purgeMs },
    };
    log(
      `purged in ${purgeMs} ms, ${results.historyEvents} history events; worker RSS max ${results.workerRssMaxMiB} MiB, API ${results.apiRssMaxMiB} MiB`,
    );
    writeBenchResults(sizedName('purge', PAGES), results, renderReport(results), log);
    if (!results.met.purge) process.exitCode = 1;
  } finally {
    await jobs.stop();
    await work.temporal.close();
    await ds.destroy();
  }
}

function renderReport(r: {
  date: string;
  machine: Record<string, string | number>;
  space: { pages: number; revisions: number; searchSections: number };
  purgeMs: number;
  historyEvents: number;
  workerRssMaxMiB: number;
  apiRssMaxMiB: number;
}): string {
  return [
    `# Purge benchmark, ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    `A space of ${r.space.pages} pages, ${r.space.revisions} revisions and ${r.space.searchSections} search sections, deleted through the API with SPACE_RETENTION_SECONDS=0; API and worker each in a child process.`,
    '',
    '| Measure | Value | Target |',
    '|---|---|---|',
    `| deletion to the space's row gone | ${r.purgeMs} ms | < ${TARGETS.purgeMs} ms: ${r.purgeMs < TARGETS.purgeMs ? 'met' : 'MISSED'} |`,
    `| events in the purge's workflow history | ${r.historyEvents} | |`,
    `| worker RSS, maximum (its own process) | ${r.workerRssMaxMiB} MiB | |`,
    `| API RSS, maximum | ${r.apiRssMaxMiB} MiB | |`,
    '',
  ].join('\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
