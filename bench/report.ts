/** The shape of the content benchmark's results, and their markdown summary. */
import type { CommitWrites } from './footprint';
import type { Summary } from './stats';

export interface CommitResult {
  pages: number;
  timeMs: Summary;
  /** median over the commits of each count */
  writes: CommitWrites;
}

export interface MergeResult {
  pagesPerChangeRequest: number;
  createMs: Summary;
  editCommitMs: Summary;
  mergeMs: Summary;
}

export interface SearchResult {
  sections: number;
  queries: number;
  /** results per query (the first page) */
  limit: number;
  timeMs: Summary;
  /** matching pages per query */
  matches: Summary;
  byMatches: Array<{ label: string; queries: number; timeMs?: Summary }>;
  examples: string[];
}

export interface HttpSample {
  timeMs: Summary;
  bytes: Summary;
}

export interface HttpResults {
  pageGet?: HttpSample;
  contentGet?: HttpSample;
  search?: HttpSample;
  notMounted: string[];
}

export interface BenchResults {
  date: string;
  database: string;
  machine: Record<string, string | number>;
  targets: { commitMs: number; pageReadP99Ms: number; searchP95Ms: number };
  space: {
    pages: number;
    searchSections: number;
    links: number;
    contentObjects: number;
    contentBytes: number;
    revisions: number;
  };
  build: { pagesPerCommit: number; commits: number; commitMs: Summary; totalSeconds: number };
  onePageCommit: {
    at1k: CommitResult;
    at10k: CommitResult;
    ratio10kTo1k: { medianTime: number; contentObjectRows: number; contentObjectBytes: number };
  };
  pageRead: { domainCold: Summary; http?: HttpSample };
  wholeContent: { domainColdTree: Summary; http?: HttpSample };
  merge: MergeResult;
  search: SearchResult & { http?: HttpSample };
  /** queries whose last word is cut short, as typed (it matches as a prefix), and the organization's search */
  searchVariants: Array<{ label: string; timeMs: Summary; matches: Summary; examples: string[] }>;
  notMounted: string[];
  runSeconds: number;
}

const verdict = (value: number, target: number): string =>
  value < target ? `✅ < ${target} ms` : `❌ target < ${target} ms`;
const row = (cells: Array<string | number>): string => `| ${cells.join(' | ')} |`;
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

function writesTable(r: BenchResults): string[] {
  const a = r.onePageCommit.at1k.writes;
  const b = r.onePageCommit.at10k.writes;
  const lines: Array<[string, keyof CommitWrites]> = [
    ['content_objects rows inserted', 'contentObjectRows'],
    ['content_objects bytes inserted', 'contentObjectBytes'],
    ['revisions rows inserted', 'revisionRows'],
    ['spaces rows updated (head)', 'spaceRowsUpdated'],
    ['search_sections rows deleted', 'searchRowsDeleted'],
    ['search_sections rows inserted', 'searchRowsInserted'],
    ['search_sections bytes inserted', 'searchBytesInserted'],
    ['space_links rows deleted', 'linkRowsDeleted'],
    ['space_links rows inserted', 'linkRowsInserted'],
  ];
  return [
    '| Written per commit (median) | at 1,000 pages | at 10,000 pages |',
    '|---|---|---|',
    ...lines.map(([label, k]) => row([label, a[k], b[k]])),
  ];
}

export function renderReport(r: BenchResults): string {
  const c1 = r.onePageCommit.at1k.timeMs;
  const c10 = r.onePageCommit.at10k.timeMs;
  const out = [
    `# Content benchmark — ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}. Database \`${r.database}\`, run time ${r.runSeconds} s.`,
    '',
    `Space: ${r.space.pages.toLocaleString('en')} pages, ${r.space.searchSections.toLocaleString('en')} search sections, ${r.space.links.toLocaleString('en')} links; ` +
      `${r.space.contentObjects.toLocaleString('en')} content objects (${(r.space.contentBytes / 2 ** 20).toFixed(1)} MiB), ${r.space.revisions} revisions. ` +
      `Built in ${r.build.commits} commits of up to ${r.build.pagesPerCommit} pages (median ${r.build.commitMs.median} ms each, ${r.build.totalSeconds} s in all).`,
    '',
    '## Results (milliseconds)',
    '',
    '| Measure | n | median | p90 | p95 | p99 | max | target |',
    '|---|---|---|---|---|---|---|---|',
    row([
      'One-page commit at 1,000 pages',
      c1.n,
      c1.median,
      c1.p90,
      c1.p95,
      c1.p99,
      c1.max,
      verdict(c1.p90, r.targets.commitMs),
    ]),
    row([
      'One-page commit at 10,000 pages',
      c10.n,
      c10.median,
      c10.p90,
      c10.p95,
      c10.p99,
      c10.max,
      verdict(c10.p90, r.targets.commitMs),
    ]),
    row([
      'Page read, domain, cold store',
      r.pageRead.domainCold.n,
      r.pageRead.domainCold.median,
      r.pageRead.domainCold.p90,
      r.pageRead.domainCold.p95,
      r.pageRead.domainCold.p99,
      r.pageRead.domainCold.max,
      verdict(r.pageRead.domainCold.p99, r.targets.pageReadP99Ms),
    ]),
  ];
  const h = r.pageRead.http?.timeMs;
  if (h)
    out.push(
      row(['Page GET over HTTP', h.n, h.median, h.p90, h.p95, h.p99, h.max, verdict(h.p99, r.targets.pageReadP99Ms)]),
    );
  const t = r.wholeContent.domainColdTree;
  out.push(row(['Whole tree, domain, cold store', t.n, t.median, t.p90, t.p95, t.p99, t.max, '']));
  const ch = r.wholeContent.http;
  if (ch)
    out.push(
      row([
        `Whole content GET over HTTP (${kib(ch.bytes.median)})`,
        ch.timeMs.n,
        ch.timeMs.median,
        ch.timeMs.p90,
        ch.timeMs.p95,
        ch.timeMs.p99,
        ch.timeMs.max,
        '',
      ]),
    );
  const m = r.merge;
  out.push(
    row([
      `Merge of a change request touching ${m.pagesPerChangeRequest} pages`,
      m.mergeMs.n,
      m.mergeMs.median,
      m.mergeMs.p90,
      m.mergeMs.p95,
      m.mergeMs.p99,
      m.mergeMs.max,
      '',
    ]),
    row([
      `… its ${m.pagesPerChangeRequest}-page commit on the change request`,
      m.editCommitMs.n,
      m.editCommitMs.median,
      m.editCommitMs.p90,
      m.editCommitMs.p95,
      m.editCommitMs.p99,
      m.editCommitMs.max,
      '',
    ]),
    row([
      '… creating the change request',
      m.createMs.n,
      m.createMs.median,
      m.createMs.p90,
      m.createMs.p95,
      m.createMs.p99,
      m.createMs.max,
      '',
    ]),
  );
  const s = r.search.timeMs;
  out.push(
    row([
      `Search, domain (${r.search.sections.toLocaleString('en')} sections)`,
      s.n,
      s.median,
      s.p90,
      s.p95,
      s.p99,
      s.max,
      verdict(s.p95, r.targets.searchP95Ms),
    ]),
  );
  const sh = r.search.http?.timeMs;
  if (sh)
    out.push(
      row([
        'Search over HTTP',
        sh.n,
        sh.median,
        sh.p90,
        sh.p95,
        sh.p99,
        sh.max,
        verdict(sh.p95, r.targets.searchP95Ms),
      ]),
    );
  for (const variant of r.searchVariants ?? [])
    out.push(
      row([
        variant.label,
        variant.timeMs.n,
        variant.timeMs.median,
        variant.timeMs.p90,
        variant.timeMs.p95,
        variant.timeMs.p99,
        variant.timeMs.max,
        verdict(variant.timeMs.p95, r.targets.searchP95Ms),
      ]),
    );
  out.push(
    '',
    'Targets: one-page commit < 50 ms (checked on p90), page GET p99 < 20 ms, search p95 < 50 ms.',
    '',
    '## Scale: one-page commit at 10,000 vs 1,000 pages',
    '',
    `Median time ratio ${r.onePageCommit.ratio10kTo1k.medianTime}; content object rows ratio ${r.onePageCommit.ratio10kTo1k.contentObjectRows}; content bytes ratio ${r.onePageCommit.ratio10kTo1k.contentObjectBytes}.`,
    '',
    ...writesTable(r),
    '',
    '## Search latency by how many pages match',
    '',
    '| Queries where | n | median | p95 | max |',
    '|---|---|---|---|---|',
    ...r.search.byMatches.map((band) =>
      row([band.label, band.queries, band.timeMs?.median ?? '', band.timeMs?.p95 ?? '', band.timeMs?.max ?? '']),
    ),
    '',
    '## Notes',
    '',
    '- "Cold" means a fresh `ObjectStore` (no in-process cache); the MariaDB buffer pool is warm, as on a running server.',
    `- Search: ${r.search.queries} queries of one or two topic words (e.g. ${r.search.examples.map((q) => `"${q}"`).join(', ')}), first page of ${r.search.limit} results; ` +
      `matching pages per query: median ${r.search.matches.median}, p90 ${r.search.matches.p90}, max ${r.search.matches.max}.`,
  );
  for (const variant of r.searchVariants ?? [])
    out.push(
      `- ${variant.label}: e.g. ${variant.examples.map((q) => `"${q}"`).join(', ')}; matching pages (spaces, for the organization) per query: median ${variant.matches.median}, max ${variant.matches.max}.`,
    );
  if (r.notMounted.length) out.push(`- Not measured over HTTP (operation not mounted): ${r.notMounted.join(', ')}.`);
  return `${out.join('\n')}\n`;
}
