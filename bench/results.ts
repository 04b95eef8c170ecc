/** Where a benchmark's results go: bench/results/<name>-<date>.json and .md (a second run on the same day overwrites them). */
import { mkdirSync, writeFileSync } from 'fs';
import * as path from 'path';

export function writeBenchResults(
  name: string,
  results: { date: string },
  report: string,
  log: (message: string) => void,
): void {
  const dir = path.join(__dirname, '..', '..', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const stem = path.join(dir, `${name}-${results.date.slice(0, 10)}`);
  writeFileSync(`${stem}.json`, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${stem}.md`, report);
  log(`wrote ${path.relative(process.cwd(), stem)}.{json,md}`);
}
