/**
 * The HTTP benchmark (docs/benchmarks.md, "Hot path over HTTP"). In its own database
 * (docs_bench_http, wiped at start) it seeds an organization, then starts two processes on the same
 * MariaDB: the API (dist/api/server.js, as deployed) and a bare floor (bench/floor.ts). In interleaved
 * rounds it loads both at a fixed concurrency with autocannon and reports requests per second, p50,
 * p99, CPU per request and the ratio service/floor for eight reads, and the API's RSS under load. A search with a
 * new query each request is compared with a floor that runs the service's own full-text statements; the first read
 * of a page after a commit reads pages of change requests each with a commit of its own, each pair once.
 * Writes bench/results/http-<date>.json and .md. Run with `npm run bench:http`.
 *
 * Settings: BENCH_HTTP_ROUNDS (3, at least 3), BENCH_HTTP_SECONDS (5 per run, in one-second slices
 * alternating service and floor), BENCH_HTTP_CONNECTIONS (10), BENCH_HTTP_CASES (comma-separated case
 * names, default all: a partial run writes no results), BENCH_HTTP_CPU_PROF (a folder: the API runs
 * with `node --cpu-prof` and writes its profile there).
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { mkdirSync, writeFileSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { issueToken } from '../domain/auth/tokens';
import { createChangeRequest } from '../domain/content/change-requests';
import { commitToHead } from '../domain/content/heads';
import { newId } from '../domain/ids';
import { addOrUpdateMember } from '../domain/organizations/membership';
import { createOrganization } from '../domain/organizations/organizations';
import { createSpace } from '../domain/spaces/spaces';
import { ensureUser } from '../domain/users/users';
import { inTransaction, type WorkSource } from '../platform/db/transactions';
import { Random, writePage } from './corpus';
import { resetBenchDatabase } from './database';
import { combine, type Fresh, LoadResult, load, ServerProcess, startServer, stopServer } from './http-load';
import { CaseResult, HttpBenchResults, renderHttpReport } from './http-report';
import { StatementCounter } from './statements';
import { percentile } from './stats';

const SPACES = 10;
const TOP_PAGES = 20;
const CHILDREN_PER_PAGE = 9;
const WARMUP_SECONDS = 2;
/** Change requests with a commit each: (change request, page) pairs for first reads, more than a run's requests. */
const CHANGE_REQUESTS = 200;
const RSS_LIMIT_MIB = 300;
/**
 * GET space must reach 70% of the floor; the other reads 60% (a new-query search of the floor running its own
 * full-text statements, `/v1/openapi.json` of the floor serving the same document); the first read of a page after
 * a commit 45%.
 */
const TARGETS = { getSpace: 0.7, read: 0.6, firstRead: 0.45 };

const log = (message: string): void => void process.stdout.write(`[bench:http] ${message}\n`);

function intSetting(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n < min) throw new Error(`${name}: must be an integer of at least ${min}, got "${raw}"`);
  return n;
}

interface Seed {
  organizationId: string;
  spaceId: string;
  pageId: string;
  /** every page of the content space */
  pageIds: string[];
  /** change requests of the content space, each with a commit of its own: revisions no request has read */
  changeRequestIds: string[];
  adminToken: string;
  readerToken: string;
  pageWords: string[][];
}

/** An organization with SPACES spaces at its root, one of them with a two-level page tree. */
async function seed(work: WorkSource, appBaseUrl: string): Promise<Seed> {
  return inTransaction(work, async (db) => {
    const admin = await ensureUser(db, 'admin@bench.test', 'Bench admin');
    const reader = await ensureUser(db, 'reader@bench.test', 'Bench reader');
    const org = await createOrganization(db, { title: 'HTTP benchmark' }, admin.id);
    await addOrUpdateMember(db, org.id, reader.id, 'read');
    const space = await createSpace(db, org.id, null, { title: 'Handbook' }, admin.id);
    for (let i = 1; i < SPACES; i++) await createSpace(db, org.id, null, { title: `Space ${i}` }, admin.id);
    const rnd = new Random(20240607);
    const links = { pageIds: [] as string[], paths: [] as string[] };
    const pageWords: string[][] = [];
    const tops: string[] = [];
    const pageIds: string[] = [];
    await commitToHead(
      db,
      { kind: 'space', spaceId: space.id },
      { type: 'edits', createdById: admin.id, appBaseUrl },
      async (editor) => {
        for (let t = 0; t < TOP_PAGES; t++) {
          const top = await editor.createPage(writePage(rnd, links), {}, newId());
          tops.push(top);
          pageIds.push(top);
          for (let c = 0; c < CHILDREN_PER_PAGE; c++) {
            const page = writePage(rnd, links);
            pageWords.push(page.markdown.toLowerCase().match(/[a-z]{5,}/g) ?? []);
            const id = await editor.createPage(page, { parent: top }, newId());
            links.pageIds.push(id);
            pageIds.push(id);
          }
        }
      },
    );
    const changeRequestIds: string[] = [];
    for (let i = 0; i < CHANGE_REQUESTS; i++) {
      const cr = await createChangeRequest(db, space.id, { subject: `Edit ${i}` }, admin.id);
      await commitToHead(
        db,
        { kind: 'change-request', changeRequestId: cr.id },
        { type: 'edits', createdById: admin.id, appBaseUrl },
        (editor) => editor.updatePage(pageIds[i % pageIds.length], { markdown: writePage(rnd, links).markdown }),
      );
      changeRequestIds.push(cr.id);
    }
    return {
      organizationId: org.id,
      spaceId: space.id,
      pageId: tops[0],
      pageIds,
      changeRequestIds,
      adminToken: (await issueToken(db, admin.id, 'bench')).secret,
      readerToken: (await issueToken(db, reader.id, 'bench')).secret,
      pageWords,
    };
  });
}

/** A word found in about a tenth of the pages: a search that matches some pages, not all of them. */
function searchWord(pageWords: string[][]): string {
  const pagesWith = new Map<string, number>();
  for (const words of pageWords) for (const w of new Set(words)) pagesWith.set(w, (pagesWith.get(w) ?? 0) + 1);
  const goal = pageWords.length / 10;
  return [...pagesWith].sort((a, b) => Math.abs(a[1] - goal) - Math.abs(b[1] - goal) || a[0].localeCompare(b[0]))[0][0];
}

/**
 * What a case is compared with (bench/floor.ts): `space`, the token lookup and the space's primary-key select; `search`,
 * the same and the service's own full-text statements, for a search that no cache can answer; `document`, the same
 * reference document served by a bare server.
 */
const FLOORS = {
  space: { statements: 2, describe: 'token lookup by hash, then primary-key select of the space' },
  search: {
    statements: 4,
    describe:
      "the same, then the service's own full-text statements for the query (its ranked pages, then their sections)",
  },
  document: {
    statements: 0,
    describe: "the API's own /v1/openapi.json bytes, gzipped once at start, as the API serves them",
  },
} as const;

interface Case {
  name: string;
  label: string;
  path: string;
  role: 'admin' | 'read';
  target: number | null;
  /** each request asks what no request asked before: `true`, the path with a number appended; a function, the nth path */
  fresh?: Fresh;
  floorKind: keyof typeof FLOORS;
}

function casesOf(s: Seed, query: string): Case[] {
  const space = `/v1/spaces/${s.spaceId}`;
  return [
    { name: 'getSpace', label: 'GET space', path: space, role: 'admin', target: TARGETS.getSpace, floorKind: 'space' },
    {
      name: 'listSpaces',
      label: `Space list (${SPACES} spaces)`,
      path: `/v1/orgs/${s.organizationId}/spaces`,
      role: 'admin',
      target: TARGETS.read,
      floorKind: 'space',
    },
    {
      name: 'pageRead',
      label: 'Page read (with 9 children)',
      path: `${space}/content/page/${s.pageId}`,
      role: 'admin',
      target: TARGETS.read,
      floorKind: 'space',
    },
    {
      name: 'search',
      label: 'Space search',
      path: `${space}/search?query=${encodeURIComponent(query)}`,
      role: 'admin',
      target: TARGETS.read,
      floorKind: 'space',
    },
    // a query no request asked before (the word, then a number of its own that no page holds): what a search costs
    // when no result is remembered, against a floor that runs the same full-text statements for the same new queries
    {
      name: 'searchFresh',
      label: 'Space search, a new query each request',
      path: `${space}/search?query=${encodeURIComponent(query)}%20n`,
      role: 'admin',
      target: TARGETS.read,
      fresh: true,
      floorKind: 'search',
    },
    // each request reads a page of a change request's head, which no request read since the commit that made it: a
    // page answer is remembered by revision (api/remembered-answers.ts), so this is a read with nothing remembered
    // for its revision, its unchanged objects in the process's object cache as after any commit
    {
      name: 'pageFirstRead',
      label: 'Page read, the first after a commit (a change request)',
      path: `${space}/change-requests/${s.changeRequestIds[0]}/content/page/${s.pageIds[0]}`,
      role: 'admin',
      target: TARGETS.firstRead,
      fresh: (n) => {
        const cr = s.changeRequestIds[n % s.changeRequestIds.length];
        const page = s.pageIds[Math.floor(n / s.changeRequestIds.length) % s.pageIds.length];
        return `${space}/change-requests/${cr}/content/page/${page}`;
      },
      floorKind: 'space',
    },
    {
      name: 'openapi',
      label: '/v1/openapi.json',
      path: '/v1/openapi.json',
      role: 'admin',
      target: TARGETS.read,
      floorKind: 'document',
    },
    {
      name: 'readerGetSpace',
      label: 'GET space, `read` member',
      path: space,
      role: 'read',
      target: TARGETS.read,
      floorKind: 'space',
    },
  ];
}

function medianLoad(results: LoadResult[]): LoadResult {
  const keys = Object.keys(results[0]) as Array<keyof LoadResult>;
  return Object.fromEntries(
    keys.map((k) => [
      k,
      Math.round(
        percentile(
          results.map((r) => r[k]),
          50,
        ) * 100,
      ) / 100,
    ]),
  ) as unknown as LoadResult;
}

async function main(): Promise<void> {
  const rounds = intSetting('BENCH_HTTP_ROUNDS', 3, 3);
  const seconds = intSetting('BENCH_HTTP_SECONDS', 5, 1);
  const connections = intSetting('BENCH_HTTP_CONNECTIONS', 10, 1);
  const profileDir = process.env.BENCH_HTTP_CPU_PROF;
  // The bench's own signing secrets unless given (the API refuses to start without them); its children inherit them.
  process.env.CURSOR_SECRET ||= randomBytes(32).toString('hex');
  process.env.BLOB_URL_SECRET ||= randomBytes(32).toString('hex');
  const started = Date.now();
  const { ds, config, database, work, machine: machineAtStart } = await resetBenchDatabase('docs_bench_http', log);
  const s = await seed(work, config.appBaseUrl);
  await ds.destroy();
  const query = searchWord(s.pageWords);
  const tokenOf = (c: Case) => (c.role === 'admin' ? s.adminToken : s.readerToken);
  const only = process.env.BENCH_HTTP_CASES?.split(',').filter(Boolean);
  const cases = casesOf(s, query).filter((c) => !only || only.includes(c.name));
  if (!cases.length) throw new Error(`BENCH_HTTP_CASES: none of ${only} is a case`);

  const env = { MYSQL_DATABASE: database };
  const counter = await StatementCounter.start(config);
  const statements = new Map<string, string[]>();
  for (const c of cases) {
    statements.set(c.name, await counter.of(c.path, tokenOf(c), c.fresh));
    log(
      `${c.name}: ${statements
        .get(c.name)!
        .map((sql, i) => `\n  ${i + 1}. ${sql.slice(0, 300)}`)
        .join('')}`,
    );
  }
  const searchMatches = (
    (await counter.get(casesOf(s, query).find((c) => c.name === 'search')!.path, s.adminToken)) as { count: number }
  ).count;
  await counter.stop();

  const logDir = path.resolve(__dirname, '..', '..', '.data', 'log');
  mkdirSync(logDir, { recursive: true });
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  // the API runs as scripts/start.sh and the Dockerfile start it
  const apiArgs = [
    '--max-old-space-size=512',
    '--max-semi-space-size=32',
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    path.resolve(__dirname, '..', 'api', 'server.js'),
  ];
  // limits no load here reaches keep the rate limiter on the path at its usual cost (a lease of 100 hits per statement);
  // the metrics listener on a free port, beside an API of npm start
  const limits = {
    RATE_LIMIT_PER_TOKEN: '1000000000',
    RATE_LIMIT_PER_USER: '1000000000',
    RATE_LIMIT_PER_ORGANIZATION: '1000000000',
    METRICS_PORT: '0',
  };
  const api = await startServer(
    'api',
    apiArgs,
    { ...env, ...limits },
    'PORT',
    '/healthz',
    path.join(logDir, 'bench-http-api.log'),
  );
  // the floor serves the API's own reference document, as the API answers it (identity bytes: it gzips them itself)
  const documentFile = path.join(logDir, 'bench-http-openapi.json');
  const documentAnswer = await fetch(`${api.base}/v1/openapi.json`, { headers: { 'accept-encoding': 'identity' } });
  writeFileSync(documentFile, Buffer.from(await documentAnswer.arrayBuffer()));
  const floor = await startServer(
    'floor',
    [path.resolve(__dirname, 'floor.js')],
    { ...env, FLOOR_DOCUMENT: documentFile },
    'FLOOR_PORT',
    '/',
    path.join(logDir, 'bench-http-floor.log'),
  );
  // the search and document floors answer the case's own path (the same new queries); the space floor the space's
  const floorPathOf = (c: Case) => (c.floorKind === 'space' ? `/v1/spaces/${s.spaceId}` : c.path);
  // the search floor asks the same new queries; the space floor reads the one space
  const freshOf = (c: Case, service: boolean) => (service || c.floorKind === 'search' ? c.fresh : undefined);
  const results: CaseResult[] = [];
  try {
    log(`warming up (${WARMUP_SECONDS} s per URL)`);
    for (const c of cases) {
      await load(floor, floorPathOf(c), tokenOf(c), connections, WARMUP_SECONDS, freshOf(c, false));
      await load(api, c.path, tokenOf(c), connections, WARMUP_SECONDS, c.fresh);
    }

    const perRound = new Map<string, Array<{ service: LoadResult; floor: LoadResult; ratio: number }>>(
      cases.map((c) => [c.name, []]),
    );
    for (let round = 0; round < rounds; round++) {
      for (const [i, c] of cases.entries()) {
        // One-second slices, service and floor in turn, so a change in the machine's other load
        // (other processes share its cores) weighs on both alike; which goes first alternates.
        const order: ServerProcess[] = (round + i) % 2 ? [api, floor] : [floor, api];
        const slices = new Map<ServerProcess, LoadResult[]>(order.map((server) => [server, []]));
        for (let second = 0; second < seconds; second++) {
          for (const server of order)
            slices
              .get(server)!
              .push(
                await load(
                  server,
                  server === api ? c.path : floorPathOf(c),
                  tokenOf(c),
                  connections,
                  1,
                  freshOf(c, server === api),
                ),
              );
        }
        const service = combine(slices.get(api)!);
        const bare = combine(slices.get(floor)!);
        const ratio = service.requestsPerSecond / bare.requestsPerSecond;
        perRound.get(c.name)!.push({ service, floor: bare, ratio });
        log(
          `round ${round + 1} ${c.name}: ${Math.round(service.requestsPerSecond)} req/s vs floor ${Math.round(bare.requestsPerSecond)} (${Math.round(ratio * 100)}%), p99 ${service.p99Ms} ms, ${service.cpuMsPerRequest.toFixed(2)} CPU ms/req`,
        );
      }
    }
    for (const c of cases) {
      const r = perRound.get(c.name)!;
      results.push({
        ...c,
        statements: statements.get(c.name)!.length,
        sql: statements.get(c.name)!,
        floorStatements: FLOORS[c.floorKind].statements,
        fresh: !!c.fresh,
        service: medianLoad(r.map((x) => x.service)),
        floor: medianLoad(r.map((x) => x.floor)),
        ratio:
          Math.round(
            percentile(
              r.map((x) => x.ratio),
              50,
            ) * 1000,
          ) / 1000,
        rounds: r,
      });
    }
  } finally {
    await stopServer(api);
    await stopServer(floor);
  }

  const report: HttpBenchResults = {
    date: new Date().toISOString(),
    database,
    machine: { ...machineAtStart, loadAverage1mAtEnd: Math.round(os.loadavg()[0] * 100) / 100 },
    settings: {
      rounds,
      connections,
      secondsPerRun: seconds,
      warmupSeconds: WARMUP_SECONDS,
      logLevel: process.env.LOG_LEVEL || 'default',
      spaces: SPACES,
      pages: TOP_PAGES * (CHILDREN_PER_PAGE + 1),
      searchQuery: query,
      searchMatches,
    },
    floors: Object.values(FLOORS).map((f) => `${f.describe} (${f.statements} statements)`),
    rssLimitMiB: RSS_LIMIT_MIB,
    apiMaxRssMiB: Math.round(Math.max(...results.flatMap((c) => c.rounds.map((r) => r.service.maxRssBytes))) / 2 ** 20),
    cases: results,
    runSeconds: Math.round((Date.now() - started) / 1000),
  };
  const markdown = renderHttpReport(report);
  process.stdout.write(`\n${markdown}\n`);
  if (only) return log('a partial run (BENCH_HTTP_CASES) writes no results');
  const dir = path.resolve(__dirname, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const stem = path.join(dir, `http-${report.date.slice(0, 10)}`);
  writeFileSync(`${stem}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${stem}.md`, markdown);
  log(`wrote ${stem}.json and .md`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
