/**
 * The import benchmark (docs/benchmarks.md): a local website of 1,000 pages (a home page, 10 sections
 * and 989 pages, each page with an image of 20 distinct ones and links to its neighbours; the site of
 * the import tests, test/support/website.ts) is imported into a space through the real API (a child
 * process whose RSS is sampled, FETCH_ALLOW_LOOPBACK=true, IMPORT_WAIT_SECONDS=120) and a worker in
 * this process on a private task queue. It measures the time from the request to its 201, with the
 * job's phases read from the import run's row. Targets: under 60 s, API RSS under 300 MB. Its own
 * database (docs_bench_import, wiped at start). Writes bench/results/import-<date>.json and .md. Run
 * with `bash scripts/bench.sh import` (`npm run bench:import`).
 */
import 'reflect-metadata';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { randomBytes } from 'crypto';
import { ImportRun } from '../entities/ImportRun';
import { Revision } from '../entities/Revision';
import { SECTIONS, startWebsite } from '../test/support/website';
import { createWorker } from '../worker/worker';
import { api, sampleRss, startApiProcess } from './api-process';
import { resetBenchDatabase } from './database';
import { benchOwner } from './owner';
import { writeBenchResults } from './results';

const PAGES = 1000;
const TARGETS = { importMs: 60_000, apiRssMiB: 300 };

const log = (message: string): void => void process.stdout.write(`[bench:import] ${message}\n`);

async function main(): Promise<void> {
  const { ds, config: base, database, machine } = await resetBenchDatabase('docs_bench_import', log);
  const taskQueue = `bench-import-${randomBytes(4).toString('hex')}`;
  const config = {
    ...base,
    temporal: { ...base.temporal, taskQueue },
    fetch: { ...base.fetch, allowLoopback: true as const },
  };
  const { token, space } = await benchOwner(ds, 'Import benchmark', 'Imported docs');
  const site = await startWebsite({ pages: PAGES - 1 - SECTIONS });

  Runtime.install({ logger: new DefaultLogger('WARN') });
  const worker = await createWorker({ ds, config });
  const running = worker.worker.run();
  // the worker crawls and converts in this process: its memory is reported beside the API's
  let workerRssMax = 0;
  const workerRss = setInterval(() => (workerRssMax = Math.max(workerRssMax, process.memoryUsage().rss)), 50);
  const apiProcess = await startApiProcess({
    MYSQL_DATABASE: database,
    TEMPORAL_TASK_QUEUE: taskQueue,
    FETCH_ALLOW_LOOPBACK: 'true',
    IMPORT_WAIT_SECONDS: '120',
  });
  try {
    const rss = sampleRss(apiProcess.child);
    const started = Date.now();
    const res = await api(apiProcess.base, token, 'POST', `/v1/spaces/${space.id}/content/import`, {
      url: `${site.base}/site/`,
      source: 'website',
    });
    const importMs = Date.now() - started;
    const apiRss = rss.stop();
    clearInterval(workerRss);
    if (res.status !== 201) throw new Error(`the import answered ${res.status}: ${JSON.stringify(res.json)}`);
    const run = await ds.manager.findOneOrFail(ImportRun, { where: { spaceId: space.id } });
    const revision = await ds.manager.findOneByOrFail(Revision, { id: run.revisionId! });
    const { requestedAt, startedAt, finishedAt } = run.process;
    const phases = {
      queuedMs: startedAt!.getTime() - requestedAt!.getTime(),
      stagingMs: revision.createdAt.getTime() - startedAt!.getTime(),
      commitAndFinishMs: finishedAt!.getTime() - revision.createdAt.getTime(),
    };
    const workerRssMiB = Math.round((workerRssMax / 2 ** 20) * 10) / 10;
    log(
      `imported ${res.json.importedResources} of ${res.json.totalResources} pages in ${importMs} ms (queued ${phases.queuedMs}, staging ${phases.stagingMs}, commit ${phases.commitAndFinishMs} ms); API RSS max ${apiRss.maxMiB} MiB, worker ${workerRssMiB} MiB`,
    );

    const results = {
      date: new Date().toISOString(),
      machine,
      website: { pages: PAGES, images: 20, served: site.served() },
      result: res.json,
      importMs,
      phases,
      batchPages: config.imports.batchPages,
      concurrency: config.imports.concurrency,
      apiRssMaxMiB: apiRss.maxMiB,
      workerRssMaxMiB: workerRssMiB,
      targets: TARGETS,
      met: {
        import: importMs < TARGETS.importMs && res.json.importedResources === PAGES,
        apiRss: apiRss.maxMiB < TARGETS.apiRssMiB,
      },
    };
    writeBenchResults('import', results, renderReport(results), log);
    if (!results.met.import || !results.met.apiRss) process.exitCode = 1;
  } finally {
    clearInterval(workerRss);
    apiProcess.stop();
    worker.worker.shutdown();
    await running;
    await worker.close();
    await site.close();
    await ds.destroy();
  }
}

function renderReport(r: {
  date: string;
  machine: Record<string, string | number>;
  result: { importedResources: number; totalResources: number };
  importMs: number;
  phases: { queuedMs: number; stagingMs: number; commitAndFinishMs: number };
  batchPages: number;
  concurrency: number;
  apiRssMaxMiB: number;
  workerRssMaxMiB: number;
}): string {
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  return [
    `# Import benchmark, ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    `A local website of ${PAGES} pages (home, ${SECTIONS} sections, their pages; each page with an image of 20 distinct ones and cross links) imported with \`source: website\` into a space's live content (search and link index updated in the commit); API in a child process (IMPORT_WAIT_SECONDS=120), worker in the benchmark process (IMPORT_BATCH_PAGES=${r.batchPages}, IMPORT_CONCURRENCY=${r.concurrency}).`,
    '',
    '| Measure | Value | Target |',
    '|---|---|---|',
    `| request to 201 | ${r.importMs} ms | < ${TARGETS.importMs} ms: ${mark(r.importMs < TARGETS.importMs)} |`,
    `| of which queued / staging (crawl, convert, images) / commit and finish | ${r.phases.queuedMs} / ${r.phases.stagingMs} / ${r.phases.commitAndFinishMs} ms | |`,
    `| pages imported / processed | ${r.result.importedResources} / ${r.result.totalResources} | ${PAGES} |`,
    `| API RSS, maximum | ${r.apiRssMaxMiB} MiB | < ${TARGETS.apiRssMiB} MiB: ${mark(r.apiRssMaxMiB < TARGETS.apiRssMiB)} |`,
    `| worker RSS, maximum (the benchmark process, website included) | ${r.workerRssMaxMiB} MiB | |`,
    '',
  ].join('\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
