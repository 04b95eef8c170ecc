/**
 * The zip import benchmark (docs/benchmarks.md): an archive of 1,000 markdown files (`--pages N`) in folders of 100
 * (each folder's README.md its page), each file linking its neighbour, and every tenth file showing the archive's
 * image set (20 distinct PNGs of 20 KB), is imported with `source: zip` through the real API and worker, each a child
 * process (bench/import-run.ts), while another organization's page takes steady writes. Reports the time, the
 * worker's and the API's peak RSS, the events of the import's workflow history and the other tenant's write p99 while
 * the import commits. Its own database (docs_bench_zip, wiped at start). Writes bench/results/zip-<N>p-<date>.json
 * and .md. Run with `bash scripts/bench.sh zip [--pages N]` (`npm run bench:zip`).
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { zipOf } from '../test/support/import-fixtures';
import { pngBytes, startWebsite } from '../test/support/website';
import { measureImport, renderImportReport } from './import-run';
import { writeBenchResults } from './results';
import { pagesArgument, sizedName } from './size';

const PAGES = pagesArgument(1000, 100);
const FILES_PER_FOLDER = 100;
const IMAGES = 20;
const IMAGE_BYTES = 20 * 1024;

const log = (message: string): void => void process.stdout.write(`[bench:zip] ${message}\n`);

const folderOf = (n: number) => `part-${Math.floor(n / FILES_PER_FOLDER)}`;
/** The first file of each folder is its README.md (the folder's page). */
const fileOf = (n: number) => (n % FILES_PER_FOLDER ? `topic-${n}.md` : 'README.md');

function markdownOf(n: number): string {
  const next = n + 1 < PAGES ? `[the next topic](../${folderOf(n + 1)}/${fileOf(n + 1)})` : 'the end of the handbook';
  const images =
    n % 10 === 0 ? Array.from({ length: IMAGES }, (_, i) => `![Figure ${i}](../images/figure-${i}.png)`) : [];
  return [
    `# Topic ${n}`,
    '',
    `Topic ${n} of the handbook explains one setting in enough words to read like documentation. Read on with ${next}.`,
    '',
    ...images,
    '',
    '## Details',
    '',
    `- The setting ${n} takes a value between 1 and 100.`,
    `- Its default is \`${n % 100}\`; change it in the configuration file.`,
    '',
  ].join('\n');
}

async function archive(): Promise<Buffer> {
  const files: Record<string, Buffer | string> = {};
  for (let i = 0; i < IMAGES; i++)
    // random bytes after the PNG: images that do not compress, as real ones
    files[`handbook/images/figure-${i}.png`] = Buffer.concat([pngBytes(i), randomBytes(IMAGE_BYTES)]);
  for (let n = 0; n < PAGES; n++) files[`handbook/${folderOf(n)}/${fileOf(n)}`] = markdownOf(n);
  return zipOf(files);
}

async function main(): Promise<void> {
  let archiveBytes = 0;
  const results = await measureImport({
    database: 'docs_bench_zip',
    pages: PAGES,
    source: 'zip',
    serve: async () => {
      const body = await archive();
      archiveBytes = body.length;
      const site = await startWebsite({ pages: 0, files: { '/handbook.zip': { type: 'application/zip', body } } });
      return { url: `${site.base}/handbook.zip`, close: () => site.close() };
    },
    log,
  });
  const what = `An archive of ${PAGES} markdown files in folders of ${FILES_PER_FOLDER}, every tenth showing the same ${IMAGES} images of ${IMAGE_BYTES / 1024} KB (${Math.round(archiveBytes / 1024)} KB zipped)`;
  const withArchive = { ...results, archiveBytes };
  writeBenchResults(sizedName('zip', PAGES), withArchive, renderImportReport(results, what), log);
  if (!results.met.allImported || (PAGES >= 10_000 && !Object.values(results.met).every(Boolean))) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
