/**
 * The website import benchmark (docs/benchmarks.md): a local website of 1,000 pages (`--pages N`: a home page, 10
 * sections and their pages, each page with an image of 20 distinct ones and links to its neighbours; the site of the
 * import tests, test/support/website.ts) is crawled with `source: website` through the real API and worker, each a
 * child process (bench/import-run.ts), while another organization's page takes steady writes. Reports the time, the
 * worker's and the API's peak RSS, the events of the import's workflow history and the other tenant's write p99 while
 * the import commits. Its own database (docs_bench_import, wiped at start). Writes
 * bench/results/import-<N>p-<date>.json and .md. Run with `bash scripts/bench.sh import [--pages N]`.
 */
import 'reflect-metadata';
import { SECTIONS, startWebsite } from '../test/support/website';
import { measureImport, renderImportReport } from './import-run';
import { writeBenchResults } from './results';
import { pagesArgument, sizedName } from './size';

const PAGES = pagesArgument(1000, 100);

const log = (message: string): void => void process.stdout.write(`[bench:import] ${message}\n`);

async function main(): Promise<void> {
  const results = await measureImport({
    database: 'docs_bench_import',
    pages: PAGES,
    source: 'website',
    serve: async () => {
      const site = await startWebsite({ pages: PAGES - 1 - SECTIONS });
      return { url: `${site.base}/site/`, close: () => site.close() };
    },
    log,
  });
  const what = `A local website of ${PAGES} pages (home, ${SECTIONS} sections, their pages; each page with an image of 20 distinct ones and cross links)`;
  writeBenchResults(sizedName('import', PAGES), results, renderImportReport(results, what), log);
  if (!results.met.allImported || (PAGES >= 10_000 && !Object.values(results.met).every(Boolean))) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
