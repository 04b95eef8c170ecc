/**
 * The content benchmark (docs/benchmarks.md). In its own database (docs_bench, wiped at start) it
 * builds a 10,000-page space through the domain, then measures one-page commits at 1,000 and
 * 10,000 pages, cold page and tree reads (domain and HTTP), change request merges and search.
 * Writes bench/results/content-<date>.json and .md. Run with `npm run bench` or scripts/bench.sh.
 */
import 'reflect-metadata';
import { once } from 'events';
import { mkdirSync, writeFileSync } from 'fs';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { createApp } from '../api/app';
import { createChangeRequest, mergeChangeRequest } from '../domain/content/change-requests';
import type { ContentEditor } from '../domain/content/editor';
import { commitToHead, Head } from '../domain/content/heads';
import { sharedObjects } from '../domain/content/object-cache';
import { ObjectStore } from '../domain/content/objects';
import { ContentReader } from '../domain/content/reader';
import { findSpaceWithRevision } from '../domain/content/revisions';
import { newId } from '../domain/ids';
import { searchOrganization, searchSpace } from '../domain/search/search';
import { Revision } from '../entities/Revision';
import { Space } from '../entities/Space';
import { loadConfig } from '../platform/config';
import { inTransaction, type WorkSource } from '../platform/db/transactions';
import { createBlobStore } from '../platform/storage';
import { TemporalGateway } from '../platform/temporal/gateway';
import { LinkTargets, Random, searchQuery, typedQuery, writePage } from './corpus';
import { resetBenchDatabase } from './database';
import { CommitWrites, commitWrites, pageIndexRows, storeTotals } from './footprint';
import { benchOwner } from './owner';
import { BenchResults, CommitResult, HttpResults, MergeResult, renderReport, SearchResult } from './report';
import { Summary, summarize, timed } from './stats';

const TOTAL_PAGES = 10_000;
const TOP_LEVEL = 20;
const CHILDREN_PER_TOP = 10;
const SHALLOW_PAGES = TOP_LEVEL * (CHILDREN_PER_TOP + 1);
const PAGES_PER_COMMIT = 500;
const COMMIT_SAMPLES = 30;
const READ_SAMPLES = 500;
const TREE_SAMPLES = 5;
const MERGE_SAMPLES = 5;
const MERGE_PAGES = 10;
const SEARCH_QUERIES = 200;
const SEARCH_LIMIT = 10;

const TARGETS = { commitMs: 50, pageReadP99Ms: 20, searchP95Ms: 50 };

const log = (message: string): void => void process.stdout.write(`[bench] ${message}\n`);

interface PlannedPage {
  id: string;
  parent: string | null;
}

/** 20 top-level pages, 10 children each, and the rest as grandchildren spread evenly (48–49 each). */
function planPages(): PlannedPage[] {
  const top = Array.from({ length: TOP_LEVEL }, () => ({ id: newId(), parent: null }));
  const second = Array.from({ length: TOP_LEVEL * CHILDREN_PER_TOP }, (_, i) => ({
    id: newId(),
    parent: top[Math.floor(i / CHILDREN_PER_TOP)].id,
  }));
  const remaining = TOTAL_PAGES - top.length - second.length;
  const third = Array.from({ length: remaining }, (_, i) => ({
    id: newId(),
    parent: second[Math.floor((i * second.length) / remaining)].id,
  }));
  return [...top, ...second, ...third];
}

interface Bench {
  ds: DataSource;
  work: WorkSource;
  appBaseUrl: string;
  userId: string;
  space: Space;
  head: Head;
  rnd: Random;
  pageIds: string[];
  links: LinkTargets;
}

async function commit(bench: Bench, head: Head, edit: (editor: ContentEditor) => Promise<void>): Promise<void> {
  await inTransaction(bench.work, (db) =>
    commitToHead(db, head, { type: 'edits', createdById: bench.userId, appBaseUrl: bench.appBaseUrl }, edit),
  );
}

async function currentRoot(bench: Bench): Promise<string> {
  const space = await bench.ds.manager.findOneByOrFail(Space, { id: bench.space.id });
  return (await bench.ds.manager.findOneByOrFail(Revision, { id: space.revisionId! })).root;
}

/** Creates the planned pages in commits of PAGES_PER_COMMIT, until `upTo` pages exist. */
async function buildUpTo(bench: Bench, plan: PlannedPage[], upTo: number, buildTimes: number[]): Promise<void> {
  while (bench.pageIds.length < upTo) {
    const batch = plan.slice(bench.pageIds.length, Math.min(upTo, bench.pageIds.length + PAGES_PER_COMMIT));
    const { ms } = await timed(() =>
      commit(bench, bench.head, async (editor) => {
        for (const p of batch) await editor.createPage(writePage(bench.rnd, bench.links), { parent: p.parent }, p.id);
      }),
    );
    buildTimes.push(ms);
    const start = bench.pageIds.length;
    bench.pageIds.push(...batch.map((p) => p.id));
    bench.links.pageIds.push(...batch.map((p) => p.id));
    // the top two levels are the targets of path links
    if (start < SHALLOW_PAGES) {
      const reader = new ContentReader(new ObjectStore(bench.ds.manager), await currentRoot(bench));
      for (const p of plan.slice(start, Math.min(SHALLOW_PAGES, bench.pageIds.length)))
        bench.links.paths.push(await reader.pathOf(p.id));
    }
    log(`${bench.pageIds.length} pages (commit of ${batch.length} in ${Math.round(ms)} ms)`);
  }
}

function medianOf(rows: CommitWrites[]): CommitWrites {
  const keys = Object.keys(rows[0]) as Array<keyof CommitWrites>;
  return Object.fromEntries(keys.map((k) => [k, summarize(rows.map((r) => r[k])).median])) as unknown as CommitWrites;
}

/** COMMIT_SAMPLES commits that each rewrite one random page's markdown. */
async function measureOnePageCommits(bench: Bench): Promise<CommitResult> {
  const times: number[] = [];
  const writes: CommitWrites[] = [];
  const db = bench.ds.manager;
  for (let i = 0; i < COMMIT_SAMPLES; i++) {
    const pageId = bench.rnd.pick(bench.pageIds);
    const markdown = writePage(bench.rnd, bench.links).markdown;
    const [totalsBefore, indexBefore] = [await storeTotals(db), await pageIndexRows(db, bench.space.id, [pageId])];
    const { ms } = await timed(() => commit(bench, bench.head, (editor) => editor.updatePage(pageId, { markdown })));
    const [totalsAfter, indexAfter] = [await storeTotals(db), await pageIndexRows(db, bench.space.id, [pageId])];
    times.push(ms);
    writes.push(commitWrites(totalsBefore, totalsAfter, indexBefore, indexAfter));
  }
  const result = { pages: bench.pageIds.length, timeMs: summarize(times), writes: medianOf(writes) };
  log(`one-page commit at ${result.pages} pages: median ${result.timeMs.median} ms, p90 ${result.timeMs.p90} ms`);
  return result;
}

async function measureColdPageReads(bench: Bench, root: string): Promise<Summary> {
  const times: number[] = [];
  for (let i = 0; i < READ_SAMPLES; i++) {
    const pageId = bench.rnd.pick(bench.pageIds);
    sharedObjects.clear();
    const { ms, result } = await timed(() => new ContentReader(new ObjectStore(bench.ds.manager), root).page(pageId));
    if (!result) throw new Error(`page ${pageId} is missing`);
    times.push(ms);
  }
  return summarize(times);
}

async function measureColdTrees(bench: Bench, root: string): Promise<{ timeMs: Summary; pages: number }> {
  const times: number[] = [];
  let pages = 0;
  for (let i = 0; i < TREE_SAMPLES; i++) {
    sharedObjects.clear();
    const { ms, result } = await timed(() => new ContentReader(new ObjectStore(bench.ds.manager), root).tree());
    const count = (nodes: typeof result): number => nodes.reduce((n, p) => n + 1 + count(p.children), 0);
    pages = count(result);
    times.push(ms);
  }
  return { timeMs: summarize(times), pages };
}

async function measureMerges(bench: Bench): Promise<MergeResult> {
  const create: number[] = [];
  const edit: number[] = [];
  const merge: number[] = [];
  for (let i = 0; i < MERGE_SAMPLES; i++) {
    const cr = await timed(() =>
      inTransaction(bench.ds, (db) => createChangeRequest(db, bench.space.id, { subject: `bench ${i}` }, bench.userId)),
    );
    const pages = bench.rnd.sample(bench.pageIds, MERGE_PAGES);
    const edited = await timed(() =>
      commit(bench, { kind: 'change-request', changeRequestId: cr.result.id }, async (editor) => {
        for (const pageId of pages)
          await editor.updatePage(pageId, { markdown: writePage(bench.rnd, bench.links).markdown });
      }),
    );
    const merged = await timed(() =>
      inTransaction(bench.work, (db) => mergeChangeRequest(db, cr.result.id, bench.userId, bench.appBaseUrl)),
    );
    create.push(cr.ms);
    edit.push(edited.ms);
    merge.push(merged.ms);
  }
  return {
    pagesPerChangeRequest: MERGE_PAGES,
    createMs: summarize(create),
    editCommitMs: summarize(edit),
    mergeMs: summarize(merge),
  };
}

/** Search cost follows the number of matching sections, so results are also split by how many pages match. */
const MATCH_BANDS = [
  { label: 'fewer than 1% of pages match', below: 0.01 },
  { label: '1% to 10% of pages match', below: 0.1 },
  { label: '10% or more of pages match', below: Infinity },
];

/** Typed queries (a prefix last) in the space, and whole-word and typed queries across the organization. */
async function measureSearchVariants(bench: Bench, queries: string[], typed: string[]) {
  const { space: read, revision } = (await findSpaceWithRevision(bench.ds.manager, bench.space.id))!;
  const space = { space: read, root: revision?.root ?? null };
  const inSpace = (query: string) => searchSpace(bench.ds.manager, space, { query, limit: SEARCH_LIMIT });
  const inOrganization = (query: string) =>
    searchOrganization(bench.ds.manager, read.organizationId, { everything: true }, { query, limit: SEARCH_LIMIT });
  const sample = async (label: string, list: string[], run: (q: string) => Promise<{ count: number }>) => {
    const samples: Array<{ ms: number; matches: number }> = [];
    for (const query of list) {
      const { ms, result } = await timed(() => run(query));
      samples.push({ ms, matches: result.count });
    }
    return {
      label,
      timeMs: summarize(samples.map((s) => s.ms)),
      matches: summarize(samples.map((s) => s.matches)),
      examples: list.slice(0, 5),
    };
  };
  return [
    await sample('Search, domain, last word typed short (prefix)', typed, inSpace),
    await sample('Organization search, domain', queries, inOrganization),
    await sample('Organization search, domain, last word typed short', typed, inOrganization),
  ];
}

async function measureSearch(bench: Bench, queries: string[]): Promise<SearchResult> {
  const { space: read, revision } = (await findSpaceWithRevision(bench.ds.manager, bench.space.id))!;
  const space = { space: read, root: revision?.root ?? null };
  const [row] = await bench.ds.manager.query('SELECT COUNT(*) AS n FROM search_sections WHERE spaceId = ?', [read.id]);
  await searchSpace(bench.ds.manager, space, { query: queries[0], limit: SEARCH_LIMIT }); // reads the server's full-text settings once
  const samples: Array<{ ms: number; matches: number }> = [];
  for (const query of queries) {
    const { ms, result } = await timed(() => searchSpace(bench.ds.manager, space, { query, limit: SEARCH_LIMIT }));
    samples.push({ ms, matches: result.count });
  }
  const bands = MATCH_BANDS.map((band, i) => {
    const inBand = samples.filter(
      (s) =>
        s.matches / bench.pageIds.length < band.below &&
        (i === 0 || s.matches / bench.pageIds.length >= MATCH_BANDS[i - 1].below),
    );
    return {
      label: band.label,
      queries: inBand.length,
      ...(inBand.length ? { timeMs: summarize(inBand.map((s) => s.ms)) } : {}),
    };
  });
  return {
    sections: Number(row.n),
    queries: queries.length,
    limit: SEARCH_LIMIT,
    timeMs: summarize(samples.map((s) => s.ms)),
    matches: summarize(samples.map((s) => s.matches)),
    byMatches: bands,
    examples: queries.slice(0, 5),
  };
}

/** The real app on an ephemeral port; answers undefined for an operation not mounted (yet). */
class HttpClient {
  private constructor(
    private readonly server: Server,
    private readonly base: string,
    private readonly token: string,
  ) {}

  static async start(ds: DataSource, config: ReturnType<typeof loadConfig>, token: string): Promise<HttpClient> {
    const app = createApp({
      ds,
      config,
      temporal: new TemporalGateway(config),
      blobs: createBlobStore(config),
      logger: pino({ level: 'silent' }),
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return new HttpClient(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token);
  }

  /** Status, bytes and milliseconds of a GET, body fully read. */
  async get(urlPath: string): Promise<{ status: number; bytes: number; ms: number; body: string }> {
    const { ms, result } = await timed(async () => {
      const res = await fetch(`${this.base}${urlPath}`, { headers: { Authorization: `Bearer ${this.token}` } });
      return { status: res.status, body: await res.text() };
    });
    return { ...result, bytes: Buffer.byteLength(result.body), ms };
  }

  async mounted(urlPath: string): Promise<boolean> {
    const res = await this.get(urlPath);
    if (res.status === 200) return true;
    if (res.status === 404 && res.body.includes('route not found')) return false;
    throw new Error(`GET ${urlPath}: ${res.status} ${res.body.slice(0, 200)}`);
  }

  async sample(paths: string[]): Promise<{ timeMs: Summary; bytes: Summary }> {
    const times: number[] = [];
    const bytes: number[] = [];
    for (const p of paths) {
      const res = await this.get(p);
      if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${res.body.slice(0, 200)}`);
      times.push(res.ms);
      bytes.push(res.bytes);
    }
    return { timeMs: summarize(times), bytes: summarize(bytes) };
  }

  async close(): Promise<void> {
    this.server.close();
    await once(this.server, 'close');
  }
}

async function measureHttp(bench: Bench, http: HttpClient, queries: string[]): Promise<HttpResults> {
  const out: HttpResults = { notMounted: [] };
  const base = `/v1/spaces/${bench.space.id}`;
  const pagePath = (id: string) => `${base}/content/page/${id}`;
  if (await http.mounted(pagePath(bench.pageIds[0]))) {
    await http.sample(bench.rnd.sample(bench.pageIds, 20).map(pagePath)); // warm the connection and the app
    out.pageGet = await http.sample(
      Array.from({ length: READ_SAMPLES }, () => pagePath(bench.rnd.pick(bench.pageIds))),
    );
    log(`HTTP page GET: p50 ${out.pageGet.timeMs.median} ms, p99 ${out.pageGet.timeMs.p99} ms`);
  } else out.notMounted.push('GET /v1/spaces/{spaceId}/content/page/{pageId}');
  if (await http.mounted(`${base}/content`))
    out.contentGet = await http.sample(Array.from({ length: TREE_SAMPLES }, () => `${base}/content`));
  else out.notMounted.push('GET /v1/spaces/{spaceId}/content');
  const searchPath = (q: string) => `${base}/search?query=${encodeURIComponent(q)}&limit=${SEARCH_LIMIT}`;
  if (await http.mounted(searchPath(queries[0]))) out.search = await http.sample(queries.map(searchPath));
  else out.notMounted.push('GET /v1/spaces/{spaceId}/search');
  return out;
}

async function main(): Promise<void> {
  const started = Date.now();
  const { ds, config, database, work, machine: machineAtStart } = await resetBenchDatabase('docs_bench', log);

  const { user, token, space } = await benchOwner(ds, 'Benchmark', 'Ten thousand pages');
  const bench: Bench = {
    ds,
    work,
    appBaseUrl: config.appBaseUrl,
    userId: user.id,
    space,
    head: { kind: 'space', spaceId: space.id },
    rnd: new Random(20240501),
    pageIds: [],
    links: { pageIds: [], paths: [] },
  };
  const plan = planPages();
  const buildTimes: number[] = [];

  await buildUpTo(bench, plan, 1000, buildTimes);
  const commitAt1k = await measureOnePageCommits(bench);
  await buildUpTo(bench, plan, TOTAL_PAGES, buildTimes);
  const commitAt10k = await measureOnePageCommits(bench);

  const root = await currentRoot(bench);
  const pageRead = await measureColdPageReads(bench, root);
  log(`cold page read: p50 ${pageRead.median} ms, p99 ${pageRead.p99} ms`);
  const tree = await measureColdTrees(bench, root);
  log(`cold tree of ${tree.pages} pages: median ${tree.timeMs.median} ms`);

  const queries = Array.from({ length: SEARCH_QUERIES }, () => searchQuery(bench.rnd));
  const search = await measureSearch(bench, queries);
  log(`search over ${search.sections} sections: p50 ${search.timeMs.median} ms, p95 ${search.timeMs.p95} ms`);
  const typed = Array.from({ length: SEARCH_QUERIES }, () => typedQuery(bench.rnd));
  const searchVariants = await measureSearchVariants(bench, queries, typed);
  for (const v of searchVariants) log(`${v.label}: p50 ${v.timeMs.median} ms, p95 ${v.timeMs.p95} ms`);

  const http = await HttpClient.start(ds, config, token);
  const httpResults = await measureHttp(bench, http, queries);
  await http.close();

  const merge = await measureMerges(bench);
  log(`merge of ${MERGE_PAGES} pages: median ${merge.mergeMs.median} ms`);

  const totals = await storeTotals(ds.manager);
  const [links] = await ds.query('SELECT COUNT(*) AS n FROM space_links WHERE spaceId = ?', [space.id]);
  const results: BenchResults = {
    date: new Date().toISOString(),
    database,
    machine: { ...machineAtStart, loadAverage1mAtEnd: Math.round(os.loadavg()[0] * 100) / 100 },
    targets: TARGETS,
    space: {
      pages: bench.pageIds.length,
      searchSections: search.sections,
      links: Number(links.n),
      contentObjects: totals.contentObjects,
      contentBytes: totals.contentBytes,
      revisions: totals.revisions,
    },
    build: {
      pagesPerCommit: PAGES_PER_COMMIT,
      commits: buildTimes.length,
      commitMs: summarize(buildTimes),
      totalSeconds: Math.round(buildTimes.reduce((a, b) => a + b, 0) / 1000),
    },
    onePageCommit: {
      at1k: commitAt1k,
      at10k: commitAt10k,
      ratio10kTo1k: {
        medianTime: Math.round((commitAt10k.timeMs.median / commitAt1k.timeMs.median) * 100) / 100,
        contentObjectRows: commitAt10k.writes.contentObjectRows / commitAt1k.writes.contentObjectRows,
        contentObjectBytes:
          Math.round((commitAt10k.writes.contentObjectBytes / commitAt1k.writes.contentObjectBytes) * 100) / 100,
      },
    },
    pageRead: { domainCold: pageRead, http: httpResults.pageGet },
    wholeContent: { domainColdTree: tree.timeMs, http: httpResults.contentGet },
    merge,
    search: { ...search, http: httpResults.search },
    searchVariants,
    notMounted: httpResults.notMounted,
    runSeconds: Math.round((Date.now() - started) / 1000),
  };
  await ds.destroy();

  const dir = path.resolve(__dirname, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const stem = path.join(dir, `content-${results.date.slice(0, 10)}`);
  writeFileSync(`${stem}.json`, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${stem}.md`, renderReport(results));
  log(`done in ${results.runSeconds} s: ${stem}.json and .md`);
}

main().catch((err) => {
  process.stderr.write(`benchmark failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
