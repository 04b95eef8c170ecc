/** The size a job benchmark runs at: `--pages N` (`bash scripts/bench.sh pdf --pages 10000`), else its default. */
export function pagesArgument(defaultPages: number, unit = 1): number {
  const at = process.argv.indexOf('--pages');
  if (at < 0) return defaultPages;
  const pages = Number(process.argv[at + 1]);
  if (!Number.isInteger(pages) || pages < unit || pages > 100_000 || pages % unit !== 0)
    throw new Error(`--pages: must be a whole number of ${unit}s from ${unit} to 100000, not ${process.argv[at + 1]}`);
  return pages;
}

/** A result file's name: the benchmark's with its size (`pdf-10000p`), so runs at two sizes sit side by side. */
export function sizedName(name: string, pages: number): string {
  return `${name}-${pages}p`;
}
