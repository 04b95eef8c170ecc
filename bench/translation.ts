/**
 * The translation benchmark (docs/benchmarks.md). A space of 1,000 documentation pages (the content
 * benchmark's corpus: about 1.5 KB each, headings, links by id, path and URL, some code) is
 * translated by the `pseudo` provider through a worker in this process on a private task queue:
 * the time from the request to the completed run, against 30 s. Then the same space is translated
 * through an HTTP provider (a LibreTranslate-speaking server in this process that counts the words
 * it receives), one page is edited, and the incremental run must send exactly that page's words, as
 * `stats.latestWords` counts them. Its own database (docs_bench_translation, wiped at start). Writes
 * bench/results/translation-<date>.json and .md. Run with `bash scripts/bench.sh translation`
 * (`npm run bench:translation`).
 */
import 'reflect-metadata';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { randomBytes } from 'crypto';
import { mkdirSync, writeFileSync } from 'fs';
import http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { commitToHead } from '../domain/content/heads';
import { translatablePage } from '../domain/translations/page-text';
import { fromTagged } from '../domain/translations/providers/tags';
import { createTranslation, lockTranslation, requestRun } from '../domain/translations/translations';
import { Space } from '../entities/Space';
import { Translation } from '../entities/Translation';
import type { Config } from '../platform/config';
import { inTransaction } from '../platform/db/transactions';
import { TemporalGateway } from '../platform/temporal/gateway';
import { createWorker } from '../worker/worker';
import { Random, writePage } from './corpus';
import { resetBenchDatabase } from './database';
import { benchOwner } from './owner';

const TOTAL_PAGES = 1000;
const CHAPTERS = 40;
const TARGETS = { pseudoMs: 30_000 };
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

const log = (message: string): void => void process.stdout.write(`[bench:translation] ${message}\n`);

/** A LibreTranslate stand-in that answers the text as sent and counts the words of its text parts. */
async function countingProvider(): Promise<{
  url: string;
  words: () => number;
  requests: () => number;
  close: () => void;
}> {
  let words = 0;
  let requests = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const q = (JSON.parse(raw) as { q: string[] }).q;
      requests++;
      for (const text of q)
        for (const part of fromTagged(text)) if (typeof part === 'string') words += part.match(WORD)?.length ?? 0;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: q }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    words: () => words,
    requests: () => requests,
    close: () => server.close(),
  };
}

async function untilFinished(ds: DataSource, id: string, runs: number): Promise<Translation> {
  for (const start = Date.now(); Date.now() - start < 600_000; await new Promise((r) => setTimeout(r, 50))) {
    const row = await ds.manager.findOneByOrFail(Translation, { id });
    if (row.run.errorCode)
      throw new Error(`the run failed: ${row.run.errorCode} ${JSON.stringify(row.run.errorMessages)}`);
    if (row.runs >= runs && row.run.finishedAt) return row;
  }
  throw new Error('the run did not finish in 10 minutes');
}

/** Starts a worker for `config`; returns its stop function. */
async function runWorker(ds: DataSource, config: Config): Promise<() => Promise<void>> {
  const worker = await createWorker({ ds, config });
  const running = worker.worker.run();
  return async () => {
    worker.worker.shutdown();
    await running;
    await worker.close();
  };
}

async function main(): Promise<void> {
  const { ds, config: base, machine: machineAtStart } = await resetBenchDatabase('docs_bench_translation', log);
  const queue = (name: string) => ({
    ...base.temporal,
    taskQueue: `bench-translation-${name}-${randomBytes(4).toString('hex')}`,
  });
  const provider = await countingProvider();
  const pseudoConfig: Config = {
    ...base,
    temporal: queue('pseudo'),
    translation: { ...base.translation, provider: 'pseudo' },
  };
  const httpConfig: Config = {
    ...base,
    temporal: queue('http'),
    translation: {
      ...base.translation,
      provider: 'libretranslate',
      libretranslate: { url: provider.url, apiKey: '' },
      requestsPerSecond: 0,
    },
  };
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const stops = [await runWorker(ds, pseudoConfig), await runWorker(ds, httpConfig)];
  const logger = pino({ level: 'silent' });
  const gateways = [new TemporalGateway(pseudoConfig), new TemporalGateway(httpConfig)];
  // a translation asked for in a transaction starts on the worker of its gateway once it commits
  const work = (gateway: TemporalGateway) => ({ ds, config: base, temporal: gateway, logger });
  try {
    const { user, space } = await benchOwner(ds, 'Translation benchmark', 'Product handbook');
    const commit = (edit: Parameters<typeof commitToHead>[3]) =>
      inTransaction(work(gateways[0]), (db) =>
        commitToHead(
          db,
          { kind: 'space', spaceId: space.id },
          { type: 'edits', createdById: user.id, appBaseUrl: base.appBaseUrl },
          edit,
        ),
      );
    const rnd = new Random(7);
    const pageIds: string[] = [];
    let written = Date.now();
    await commit(async (editor) => {
      const paths: string[] = [];
      for (let c = 0; c < CHAPTERS; c++) {
        const chapter = writePage(rnd, { pageIds, paths });
        const chapterId = await editor.createPage(chapter);
        pageIds.push(chapterId);
        for (let p = 1; p < TOTAL_PAGES / CHAPTERS; p++)
          pageIds.push(await editor.createPage(writePage(rnd, { pageIds, paths }), { parent: chapterId }));
      }
    });
    written = Date.now() - written;
    log(`space of ${pageIds.length} pages written in ${written} ms`);

    const translate = async (gateway: TemporalGateway) => {
      const source = await ds.manager.findOneByOrFail(Space, { id: space.id });
      const ticket = await inTransaction(work(gateway), (db) =>
        createTranslation(db, { source, sourceLanguage: 'en', language: 'fr', instructions: '', createdById: user.id }),
      );
      return ticket.row.id;
    };
    const rerun = async (gateway: TemporalGateway, id: string) => {
      await inTransaction(work(gateway), async (db) => requestRun(db, (await lockTranslation(db, id))!));
    };
    const timing = (row: Translation, requestedAt: number) => ({
      totalMs: row.run.finishedAt!.getTime() - requestedAt,
      queuedMs: row.run.startedAt!.getTime() - row.run.requestedAt!.getTime(),
      jobMs: row.run.finishedAt!.getTime() - row.run.startedAt!.getTime(),
      pages: row.latestPages,
      words: row.latestWords,
    });

    // 1. pseudo, the whole space
    let t = Date.now();
    const pseudoId = await translate(gateways[0]);
    const pseudo = timing(await untilFinished(ds, pseudoId, 1), t);
    log(
      `pseudo: ${pseudo.pages} pages, ${pseudo.words} words in ${pseudo.totalMs} ms (queued ${pseudo.queuedMs} ms, job ${pseudo.jobMs} ms)`,
    );

    // 2. through HTTP: the whole space, then one page edited
    t = Date.now();
    const httpId = await translate(gateways[1]);
    const full = timing(await untilFinished(ds, httpId, 1), t);
    const fullSent = provider.words();
    log(
      `libretranslate stand-in: ${full.pages} pages, ${full.words} words (the server counted ${fullSent}) in ${full.totalMs} ms, ${provider.requests()} requests`,
    );
    const edited = pageIds[517];
    const editedText = {
      title: 'Rotate the signing keys',
      description: null,
      markdown: writePage(new Random(99), { pageIds: [], paths: [] }).markdown,
    };
    await commit((editor) => editor.updatePage(edited, editedText));
    const pageWords = translatablePage(editedText).words;
    const before = provider.words();
    t = Date.now();
    await rerun(gateways[1], httpId);
    const incremental = timing(await untilFinished(ds, httpId, 2), t);
    const sentWords = provider.words() - before;
    log(
      `incremental: ${incremental.pages} page, stats.latestWords ${incremental.words}, the server received ${sentWords} words, the page has ${pageWords}, in ${incremental.totalMs} ms`,
    );

    const results = {
      date: new Date().toISOString(),
      machine: machineAtStart,
      space: { pages: pageIds.length, writtenMs: written },
      pseudo,
      http: {
        full: { ...full, serverWords: fullSent },
        incremental: { ...incremental, serverWords: sentWords, editedPageWords: pageWords },
      },
      targets: TARGETS,
      met: {
        pseudo: pseudo.totalMs < TARGETS.pseudoMs && pseudo.pages === TOTAL_PAGES,
        incremental: incremental.pages === 1 && incremental.words === pageWords && sentWords === pageWords,
        fullCount: full.words === fullSent,
      },
    };
    const dir = path.join(__dirname, '..', '..', 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const stem = path.join(dir, `translation-${results.date.slice(0, 10)}`);
    writeFileSync(`${stem}.json`, `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(`${stem}.md`, renderReport(results));
    log(`wrote ${path.relative(process.cwd(), stem)}.{json,md}`);
    if (!Object.values(results.met).every(Boolean)) process.exitCode = 1;
  } finally {
    provider.close();
    for (const stop of stops) await stop();
    for (const gateway of gateways) await gateway.close();
    await ds.destroy();
  }
}

type Timing = { totalMs: number; queuedMs: number; jobMs: number; pages: number; words: number };

function renderReport(r: {
  date: string;
  machine: Record<string, string | number>;
  space: { pages: number; writtenMs: number };
  pseudo: Timing;
  http: {
    full: Timing & { serverWords: number };
    incremental: Timing & { serverWords: number; editedPageWords: number };
  };
  met: { pseudo: boolean; incremental: boolean; fullCount: boolean };
}): string {
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const { full, incremental } = r.http;
  return [
    `# Translation benchmark, ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    `A space of ${r.space.pages} pages (the content benchmark's corpus, about 1.5 KB each), written in ${r.space.writtenMs} ms; workers in the benchmark process, default batching (TRANSLATION_PAGES_PER_STEP, TRANSLATION_BATCH_SEGMENTS, TRANSLATION_BATCH_CHARS).`,
    '',
    '| Measure | Value | Target |',
    '|---|---|---|',
    `| \`pseudo\`, every page: request to completed run (queued + job) | ${r.pseudo.totalMs} ms (${r.pseudo.queuedMs} + ${r.pseudo.jobMs}); ${r.pseudo.pages} pages, ${r.pseudo.words} words | < ${TARGETS.pseudoMs} ms: ${mark(r.met.pseudo)} |`,
    `| HTTP provider (local LibreTranslate stand-in), every page | ${full.totalMs} ms; stats ${full.words} words, the server counted ${full.serverWords} | equal: ${mark(r.met.fullCount)} |`,
    `| incremental run after editing 1 page | ${incremental.totalMs} ms; ${incremental.pages} page sent, stats.latestWords ${incremental.words}, the server received ${incremental.serverWords} words, the page has ${incremental.editedPageWords} | exactly that page: ${mark(r.met.incremental)} |`,
    '',
  ].join('\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
