/** A whole number `flag` gives on the command line (`--runs 1`), a multiple of `unit` up to 100,000, else `fallback`. */
export function numberArgument(flag: string, fallback: number, unit = 1): number {
  const at = process.argv.indexOf(flag);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < unit || value > 100_000 || value % unit !== 0)
    throw new Error(`${flag}: must be a whole number of ${unit}s from ${unit} to 100000, not ${process.argv[at + 1]}`);
  return value;
}

/** The size a job benchmark runs at: `--pages N` (`bash scripts/bench.sh pdf --pages 10000`), else its default. */
export function pagesArgument(defaultPages: number, unit = 1): number {
  return numberArgument('--pages', defaultPages, unit);
}

/** A result file's name: the benchmark's with its size (`pdf-10000p`), so runs at two sizes sit side by side. */
export function sizedName(name: string, pages: number): string {
  return `${name}-${pages}p`;
}
