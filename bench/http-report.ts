/** The shape of the HTTP benchmark's results, and their markdown summary. */
import type { LoadResult } from './http-load';

export interface CaseResult {
  name: string;
  label: string;
  path: string;
  /** the caller's organization role */
  role: string;
  /** SQL statements the API issues for one request */
  statements: number;
  /** those statements, as sent */
  sql: string[];
  /** SQL statements of the floor it is compared with */
  floorStatements: number;
  /** ratio service/floor of requests per second that passes; null: shown for information, no target */
  target: number | null;
  /** each request asks what no request asked before (the path ends in a counter): no cache can answer it */
  fresh?: boolean;
  /** medians over the rounds */
  service: LoadResult;
  floor: LoadResult;
  /** median over the rounds of each round's service/floor requests per second */
  ratio: number;
  rounds: Array<{ service: LoadResult; floor: LoadResult; ratio: number }>;
}

export interface HttpBenchResults {
  date: string;
  database: string;
  machine: Record<string, string | number>;
  settings: {
    rounds: number;
    connections: number;
    secondsPerRun: number;
    warmupSeconds: number;
    logLevel: string;
    spaces: number;
    pages: number;
    searchQuery: string;
    searchMatches: number;
  };
  /** what each floor does, for the report */
  floors: string[];
  rssLimitMiB: number;
  apiMaxRssMiB: number;
  cases: CaseResult[];
  runSeconds: number;
}

const row = (cells: Array<string | number>): string => `| ${cells.join(' | ')} |`;
const fixed = (x: number, digits = 0): string => x.toFixed(digits);
const pct = (x: number): string => `${Math.round(x * 100)}%`;
/** null in the JSON: the database was not measured */
const orNone = (x: number | null): string => (x === null || !Number.isFinite(x) ? 'n/a' : x.toFixed(2));

export function renderHttpReport(r: HttpBenchResults): string {
  const s = r.settings;
  const out = [
    `# HTTP benchmark — ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}. Database \`${r.database}\`, run time ${r.runSeconds} s.`,
    '',
    `${s.rounds} interleaved rounds; each run ${s.secondsPerRun} s at ${s.connections} connections, in one-second slices alternating service and floor (after ${s.warmupSeconds} s of warm-up per URL); p99 is the worst slice's. ` +
      `API log level \`${s.logLevel}\`. Organization of ${s.spaces} spaces at its root; the content space has ${s.pages} pages; ` +
      `search for \`${s.searchQuery}\` (${s.searchMatches} matching pages). Figures are medians of the rounds; the ratio is the median of each round's service/floor.`,
    '',
    `Floors, Express 5 + mysql2 (bench/floor.ts): ${r.floors.join('; ')}. The new-query search is compared with the second, /v1/openapi.json with the third, the other requests with the first.`,
    '',
    '| Request | SQL statements | service req/s | p50 ms | p99 ms | CPU ms/req | MariaDB CPU ms/req | log B/req | floor SQL statements | floor req/s | floor p50 | floor p99 | floor CPU ms/req | floor MariaDB CPU ms/req | service/floor | target | CPU floor/service |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const c of r.cases) {
    out.push(
      row([
        c.label,
        c.statements,
        fixed(c.service.requestsPerSecond),
        fixed(c.service.p50Ms),
        fixed(c.service.p99Ms),
        fixed(c.service.cpuMsPerRequest, 2),
        orNone(c.service.dbCpuMsPerRequest),
        fixed(c.service.logBytesPerRequest),
        c.floorStatements,
        fixed(c.floor.requestsPerSecond),
        fixed(c.floor.p50Ms),
        fixed(c.floor.p99Ms),
        fixed(c.floor.cpuMsPerRequest, 2),
        orNone(c.floor.dbCpuMsPerRequest),
        pct(c.ratio),
        c.target === null ? 'none (information)' : `${c.ratio >= c.target ? '✅' : '❌'} ≥ ${pct(c.target)}`,
        pct(c.floor.cpuMsPerRequest / c.service.cpuMsPerRequest),
      ]),
    );
  }
  out.push(
    '',
    'SQL statements: those of a request made a second time, the token and the answers the service remembers already warm (for the new-query search, a second new query).',
    '',
    'The last column compares CPU time per request (the API process against the floor process): it moves less than',
    "requests per second when other processes share the machine's cores. MariaDB's CPU per request is the database",
    'server process (shared by both, measured around each one-second slice): the work each request asks of it.',
    '',
    `API RSS under load: at most ${r.apiMaxRssMiB} MiB ${r.apiMaxRssMiB < r.rssLimitMiB ? '✅' : '❌'} (limit ${r.rssLimitMiB} MiB).`,
    '',
    '## Each round (service/floor req/s)',
    '',
    `| Request | ${r.cases[0]?.rounds.map((_, i) => `round ${i + 1}`).join(' | ')} |`,
    `|---|${r.cases[0]?.rounds.map(() => '---').join('|')}|`,
    ...r.cases.map((c) =>
      row([
        c.label,
        ...c.rounds.map(
          (x) => `${fixed(x.service.requestsPerSecond)} / ${fixed(x.floor.requestsPerSecond)} = ${pct(x.ratio)}`,
        ),
      ]),
    ),
    '',
  );
  return out.join('\n');
}
