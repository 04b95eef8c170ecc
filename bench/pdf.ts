/**
 * The PDF benchmark (docs/benchmarks.md): a change request of 1,000 pages (`--pages N` for another size; chapters of 25 pages,
 * each page with headings, paragraphs with marks and links, nested lists, a code block, a table, a
 * quote, a hint, and on every chapter and every tenth page an image) is exported through the real API and the real
 * worker, each a child process whose RSS is sampled, on a private task queue. Each run edits one
 * page first, so it renders a new revision; it measures the time from the request to its 200 with
 * the URL, then a request for the unchanged change request (the cached file). Targets: under 30 s,
 * API RSS under 300 MB. Its own database (docs_bench_pdf, wiped at start). Writes
 * bench/results/pdf-<N>p-<date>.json and .md, with the events of each run's workflow
 * history. Run with `bash scripts/bench.sh pdf [--pages N]` (`npm run bench:pdf`).
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { PNG } from 'pngjs';
import { createChangeRequest } from '../domain/content/change-requests';
import { commitToHead } from '../domain/content/heads';
import { jobWorkflowId } from '../domain/jobs/contracts';
import { pdfExportJob } from '../domain/pdf/export-job';
import { PdfExport } from '../entities/PdfExport';
import { inTransaction } from '../platform/db/transactions';
import { TemporalGateway } from '../platform/temporal/gateway';
import { api, sampleRss, startApiProcess } from './api-process';
import { resetBenchDatabase } from './database';
import { benchOwner } from './owner';
import { writeBenchResults } from './results';
import { numberArgument, pagesArgument, sizedName } from './size';
import { startWorkerProcess } from './worker-process';

const PAGES_PER_CHAPTER = 25;
const DEFAULT_PAGES = 1000;
const PAGES = pagesArgument(DEFAULT_PAGES, PAGES_PER_CHAPTER);
const CHAPTERS = PAGES / PAGES_PER_CHAPTER;
/** `--runs N`: a run at 10,000 pages takes minutes */
const RUNS = numberArgument('--runs', 3);
const TARGETS = { exportMs: 30_000, apiRssMiB: 300 };

const log = (message: string): void => void process.stdout.write(`[bench:pdf] ${message}\n`);

/** A page of about 350 words in every form the renderer draws; `image` is a file id to show, or null. */
function pageMarkdown(n: number, image: string | null): string {
  const words = 'the service renders every page of the change request with its headings lists tables and code'.split(
    ' ',
  );
  const sentence = (k: number) => Array.from({ length: 14 }, (_, i) => words[(k * 7 + i * 3) % words.length]).join(' ');
  return [
    `Page ${n} explains **one part** of the product, with *emphasis*, \`inline code\` and [a link](https://example.com/docs/${n}). ${sentence(n)}. ${sentence(n + 1)}.`,
    `## Before you start`,
    `- ${sentence(n + 2)}\n- ${sentence(n + 3)}\n  1. first nested step\n  2. second nested step\n- ${sentence(n + 4)}`,
    `## Configure`,
    `\`\`\`yaml\nservice:\n  name: page-${n}\n  replicas: ${(n % 5) + 1}\n  ports:\n    - 8080\n    - 8443\n\`\`\``,
    `| Setting | Default | Meaning |\n|---|---|---|\n| timeout | 30 s | ${sentence(n + 5)} |\n| retries | 3 | ${sentence(n + 6)} |\n| region | eu | Where the data lives |`,
    `> ${sentence(n + 7)}. ${sentence(n + 8)}.`,
    `{% hint style="info" %}\n${sentence(n + 9)}.\n{% endhint %}`,
    ...(image ? [`![Diagram of page ${n}](file:${image})`] : []),
    `### Details`,
    `${sentence(n + 10)}. ${sentence(n + 11)}. ${sentence(n + 12)}. ${sentence(n + 13)}.`,
  ].join('\n\n');
}

/** A 1200×700 RGBA diagram: gradients, with transparency on one side. */
function diagram(): Buffer {
  const png = new PNG({ width: 1200, height: 700 });
  for (let y = 0; y < 700; y++) {
    for (let x = 0; x < 1200; x++) {
      const i = (y * 1200 + x) * 4;
      png.data.set([(x * 255) / 1200, (y * 255) / 700, 160, x < 900 ? 255 : 140], i);
    }
  }
  return PNG.sync.write(png);
}

async function main(): Promise<void> {
  const { ds, config: base, database, work, machine: machineAtStart } = await resetBenchDatabase('docs_bench_pdf', log);
  const config = { ...base, temporal: { ...base.temporal, taskQueue: `bench-pdf-${randomBytes(4).toString('hex')}` } };
  const taskQueue = config.temporal.taskQueue;
  const { user, token, space } = await benchOwner(ds, 'PDF benchmark', 'Product handbook');

  const worker = await startWorkerProcess({ MYSQL_DATABASE: database, TEMPORAL_TASK_QUEUE: taskQueue });
  const workerRss = sampleRss(worker.child);
  const temporal = new TemporalGateway(config);

  const apiProcess = await startApiProcess({
    MYSQL_DATABASE: database,
    TEMPORAL_TASK_QUEUE: taskQueue,
    PDF_WAIT_SECONDS: '120',
  });
  try {
    const upload = await fetch(`${apiProcess.base}/v1/spaces/${space.id}/content/files?name=diagram.png`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'image/png' },
      body: diagram(),
    });
    const image = ((await upload.json()) as { id: string }).id;
    const changeRequest = await inTransaction(ds, (db) =>
      createChangeRequest(db, space.id, { subject: 'The whole handbook' }, user.id),
    );
    const head = { kind: 'change-request' as const, changeRequestId: changeRequest.id };
    const commit = (edit: Parameters<typeof commitToHead>[3]) =>
      inTransaction(work, (db) =>
        commitToHead(db, head, { type: 'edits', createdById: user.id, appBaseUrl: config.appBaseUrl }, edit),
      );
    const started = Date.now();
    const pageIds: string[] = [];
    let imagesShown = 0;
    await commit(async (editor) => {
      for (let c = 0; c < CHAPTERS; c++) {
        const chapter = await editor.createPage({
          title: `Chapter ${c + 1}`,
          markdown: pageMarkdown(c * PAGES_PER_CHAPTER, image),
        });
        pageIds.push(chapter);
        imagesShown++;
        for (let p = 1; p < PAGES_PER_CHAPTER; p++) {
          const n = c * PAGES_PER_CHAPTER + p;
          const shows = n % 10 === 0;
          if (shows) imagesShown++;
          pageIds.push(
            await editor.createPage(
              {
                title: `Topic ${n}: ${['Setup', 'Usage', 'Limits', 'Security', 'Upgrades'][n % 5]}`,
                markdown: pageMarkdown(n, shows ? image : null),
              },
              { parent: chapter },
            ),
          );
        }
      }
    });
    log(`change request of ${pageIds.length} pages written in ${Date.now() - started} ms`);

    const rss = sampleRss(apiProcess.child);
    const pdfUrl = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf`;
    const runs: Array<{
      totalMs: number;
      queuedMs: number;
      collectAndRenderMs: number;
      pdfPages: number;
      megabytes: number;
      cachedMs: number;
      historyEvents: number;
    }> = [];
    for (let i = 0; i < RUNS; i++) {
      await commit((editor) =>
        editor.updatePage(pageIds[i * 37], { markdown: `${pageMarkdown(i * 37, null)}\n\nEdited for run ${i + 1}.` }),
      );
      const t = Date.now();
      let res = await api(apiProcess.base, token, 'GET', pdfUrl);
      // past PDF_WAIT_SECONDS the answer is a 202: asked again as a client would, after its Retry-After
      while (res.status === 202) {
        await new Promise((r) => setTimeout(r, 1000 * Number(res.json.retryAfter ?? 1)));
        res = await api(apiProcess.base, token, 'GET', pdfUrl);
      }
      const totalMs = Date.now() - t;
      if (res.status !== 200) throw new Error(`the PDF request answered ${res.status}: ${JSON.stringify(res.json)}`);
      const file = Buffer.from(await (await fetch(res.json.url)).arrayBuffer());
      if (file.subarray(0, 5).toString() !== '%PDF-') throw new Error('the URL did not serve a PDF');
      const row = await ds.manager.findOneOrFail(PdfExport, {
        where: { changeRequestId: changeRequest.id },
        order: { createdAt: 'DESC' },
      });
      const { requestedAt, startedAt, finishedAt } = row.render;
      const t2 = Date.now();
      const cached = await api(apiProcess.base, token, 'GET', pdfUrl);
      const cachedMs = Date.now() - t2;
      if (cached.status !== 200) throw new Error(`the cached PDF request answered ${cached.status}`);
      const workflowId = jobWorkflowId(pdfExportJob, row.id, row.render.generation);
      const history = await (await temporal.getClient()).workflow.getHandle(workflowId).fetchHistory();
      runs.push({
        totalMs,
        queuedMs: startedAt!.getTime() - requestedAt!.getTime(),
        collectAndRenderMs: finishedAt!.getTime() - startedAt!.getTime(),
        pdfPages: row.filePages!,
        megabytes: Math.round((file.length / 1e6) * 100) / 100,
        cachedMs,
        historyEvents: history.events?.length ?? 0,
      });
      log(
        `run ${i + 1}: request to URL in ${totalMs} ms (queued ${runs[i].queuedMs} ms, job ${runs[i].collectAndRenderMs} ms), ${row.filePages} PDF pages, ${runs[i].megabytes} MB, ${runs[i].historyEvents} history events; cached request ${cachedMs} ms`,
      );
    }
    const apiRss = rss.stop();
    const workerRssMiB = workerRss.stop().maxMiB;
    log(`API RSS max ${apiRss.maxMiB} MiB over ${apiRss.samples} samples; worker process RSS max ${workerRssMiB} MiB`);

    const slowest = Math.max(...runs.map((r) => r.totalMs));
    const results = {
      date: new Date().toISOString(),
      machine: machineAtStart,
      changeRequest: { pages: pageIds.length, chapters: CHAPTERS, imagesShown },
      runs,
      apiRssMaxMiB: apiRss.maxMiB,
      workerRssMaxMiB: workerRssMiB,
      targets: TARGETS,
      met: { export: slowest < TARGETS.exportMs, apiRss: apiRss.maxMiB < TARGETS.apiRssMiB },
    };
    writeBenchResults(sizedName('pdf', PAGES), results, renderReport(results, slowest), log);
    if (!results.met.export || !results.met.apiRss) process.exitCode = 1;
  } finally {
    workerRss.stop();
    apiProcess.stop();
    await worker.stop();
    await temporal.close();
    await ds.destroy();
  }
}

function renderReport(
  r: {
    date: string;
    machine: Record<string, string | number>;
    changeRequest: { pages: number };
    runs: Array<{
      totalMs: number;
      queuedMs: number;
      collectAndRenderMs: number;
      pdfPages: number;
      megabytes: number;
      cachedMs: number;
      historyEvents: number;
    }>;
    apiRssMaxMiB: number;
    workerRssMaxMiB: number;
  },
  slowest: number,
): string {
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  return [
    `# PDF benchmark, ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    `A change request of ${r.changeRequest.pages} pages (headings, marks, links, nested lists, code, a table, a quote and a hint on every page, a 1200×700 PNG on every chapter and every tenth page); API and worker each in a child process (PDF_WAIT_SECONDS=120). Each run edits one page first, so it renders a new revision.`,
    '',
    '| Measure | Value | Target |',
    '|---|---|---|',
    ...r.runs.map(
      (run, i) =>
        `| run ${i + 1}: request to 200 with the URL (queued + job) | ${run.totalMs} ms (${run.queuedMs} + ${run.collectAndRenderMs}); ${run.pdfPages} PDF pages, ${run.megabytes} MB; ${run.historyEvents} history events | < ${TARGETS.exportMs} ms |`,
    ),
    `| slowest run | ${slowest} ms | ${mark(slowest < TARGETS.exportMs)} |`,
    `| request for the unchanged change request (cached file) | ${r.runs.map((run) => run.cachedMs).join(', ')} ms | |`,
    `| API RSS, maximum | ${r.apiRssMaxMiB} MiB | < ${TARGETS.apiRssMiB} MiB: ${mark(r.apiRssMaxMiB < TARGETS.apiRssMiB)} |`,
    `| worker RSS, maximum (its own process) | ${r.workerRssMaxMiB} MiB | |`,
    '',
  ].join('\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
