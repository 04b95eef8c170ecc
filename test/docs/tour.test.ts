/**
 * The tours are executable: the bash blocks of the README's first five minutes and of docs/tour.md run in order,
 * each tour in one fresh bash shell (its first block bootstraps a new admin, so a fresh organization), against an
 * API and a worker this test starts from dist/ on free ports and a private task queue (never `npm start`'s), with
 * the demo destinations `npm start` allows. Each block's output must match the one recorded under it, where the
 * values in MASKS vary between runs and `…` stands for text left out; nothing else is masked, so a stale example
 * fails.
 */
import { ChildProcess, spawn } from 'child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { createServer } from 'net';
import path from 'path';
import { unique } from '../factories';
import { disagreeingLocations, Mask, mismatch, TourBlock, tourBlocks, withPrinted } from '../support/tour-blocks';
import { TourShell } from '../support/tour-shell';
import { WorkerProcesses } from '../support/worker-process';

const ROOT = path.join(__dirname, '..', '..');
/** A block that waits for a job or a delivery ends within seconds; past this it hangs. */
const BLOCK_TIMEOUT_MS = 30_000;
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The port the recorded outputs show for the API (npm start's); the test's own API prints another. */
const RECORDED_API_PORT = 8080;

/** The values that differ from run to run, and only those. Order matters: longer forms first. */
function masks(apiPort: number): Mask[] {
  return [
    {
      name: 'API port',
      pattern: new RegExp(`127\\.0\\.0\\.1:(?:${RECORDED_API_PORT}|${apiPort})\\b`, 'g'),
      as: '127.0.0.1:<api-port>',
    },
    { name: 'tokens', pattern: /\bdpt_[A-Za-z0-9_-]{43}/g, as: '<token>' },
    { name: 'download signatures', pattern: /signature=[A-Za-z0-9_-]+/g, as: 'signature=<signature>' },
    { name: 'list cursors', pattern: /"page":"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"/g, as: '"page":"<cursor>"' },
    { name: 'share-link keys', pattern: /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])/g, as: '<key>' },
    {
      name: 'request ids',
      pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g,
      as: '<request-id>',
    },
    // 21 characters since ids begin with a letter or digit, 20 before (docs/cli.md); never a JSON key
    { name: 'ids', pattern: /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{20,21}(?![A-Za-z0-9_-]|":)/g, as: '<id>' },
    { name: 'times', pattern: /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, as: '<time>' },
    { name: 'unix times (links, signatures, the tour run)', pattern: /\b1[7-9]\d{8}\b/g, as: '<unix-time>' },
    { name: 'durations', pattern: /\b\d+ ms\b|"(totalDuration|latestRunDuration)":\d+/g, as: '<duration>' },
    { name: 'rate-limit values', pattern: /;(r|t)=\d+/g, as: ';$1=<n>' },
  ];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The demo destinations `npm start` gives the API and the worker (scripts/start.sh). */
function demoDestinations(): string {
  const found = /FETCH_ALLOW_DESTINATIONS=([^}"]+)\}/.exec(read('scripts/start.sh'));
  if (!found) throw new Error('scripts/start.sh no longer sets FETCH_ALLOW_DESTINATIONS');
  return found[1];
}

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not ready within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Finding {
  block: string;
  problem: string;
}

/** Runs `blocks` in one fresh shell; the findings, and each block's time. */
async function runTour(file: string, blocks: TourBlock[], env: NodeJS.ProcessEnv, apiPort: number) {
  const shell = new TourShell(ROOT, env);
  const findings: Finding[] = [];
  const seconds: number[] = [];
  const printed: string[] = [];
  try {
    for (const block of blocks) {
      const run = await shell.run(block.code, BLOCK_TIMEOUT_MS);
      seconds.push(run.seconds);
      printed.push(run.output);
      const where = `${file}:${block.line}`;
      if (run.status === -1) {
        findings.push({
          block: where,
          problem: `did not end within ${BLOCK_TIMEOUT_MS / 1000} s; printed:\n${run.output}`,
        });
        break;
      }
      if (run.status !== 0) findings.push({ block: where, problem: `exit status ${run.status}` });
      for (const problem of [...disagreeingLocations(block.recorded), ...disagreeingLocations(run.output)])
        findings.push({ block: where, problem });
      const problem = mismatch(block.recorded, run.output, masks(apiPort));
      if (problem) findings.push({ block: where, problem });
    }
  } finally {
    shell.close();
  }
  return { findings, seconds, printed };
}

describe('the tours run as printed', () => {
  let apiPort: number;
  let api: ChildProcess | undefined;
  let workers: WorkerProcesses | undefined;
  const taskQueue = unique('tour-queue-');
  /** What the API and the worker need besides the test's environment: the queue, the demo destinations, short back-offs. */
  const serviceEnv = (): Record<string, string> => ({
    TEMPORAL_TASK_QUEUE: taskQueue,
    FETCH_ALLOW_DESTINATIONS: demoDestinations(),
    FETCH_ALLOW_LOOPBACK: 'false',
    INTEGRATION_DISPATCH_BACKOFF_MS: '100',
    LOG_LEVEL: 'warn',
    // the links the worker writes (an invitation's) name this API, not npm start's
    PUBLIC_BASE_URL: `http://127.0.0.1:${apiPort}`,
  });

  beforeAll(async () => {
    apiPort = await freePort();
    const env = serviceEnv();
    api = spawn(process.execPath, [path.join(ROOT, 'dist', 'api', 'server.js')], {
      env: {
        ...process.env,
        ...env,
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        METRICS_PORT: '0',
      },
      stdio: 'ignore',
    });
    workers = new WorkerProcesses(env);
    workers.start();
    await until(
      async () => (await fetch(`http://127.0.0.1:${apiPort}/readyz`)).status === 200,
      `the API on port ${apiPort}`,
    );
  }, 20_000);

  afterAll(() => {
    api?.kill('SIGTERM');
    workers?.killAll();
  });

  async function checkTour(file: string, section?: string): Promise<void> {
    const markdown = read(file);
    const blocks = tourBlocks(markdown, section);
    const printedCopy = path.join(ROOT, '.data', 'tour', path.basename(file));
    expect(blocks.length).toBeGreaterThan(5);
    const env = { ...process.env, API: `http://127.0.0.1:${apiPort}` };
    const started = Date.now();
    const { findings, seconds, printed } = await runTour(file, blocks, env, apiPort);
    const slowest = Math.max(...seconds).toFixed(1);
    process.stdout.write(
      `${file}: ${blocks.length} blocks in ${((Date.now() - started) / 1000).toFixed(1)} s (slowest ${slowest} s)\n`,
    );
    mkdirSync(path.dirname(printedCopy), { recursive: true });
    // the recorded port, so that a green run's copy can replace the document as it is
    const copy = withPrinted(markdown, blocks, printed, masks(apiPort));
    writeFileSync(printedCopy, copy.replaceAll(`127.0.0.1:${apiPort}`, `127.0.0.1:${RECORDED_API_PORT}`));
    // one readable message: each block that differs, with both outputs after masking
    if (findings.length > 0)
      throw new Error(
        `${findings.length} block(s) differ (${printedCopy} is ${file} with what was printed):\n\n${findings.map((f) => `${f.block}: ${f.problem}`).join('\n\n')}`,
      );
  }

  // at most 2 minutes in all: 20 s to start, 20 s for the README's tour, 80 s for the full one (30-50 s here)
  it('README.md: every block of the first five minutes prints what is recorded under it', async () => {
    await checkTour('README.md', '## The first five minutes');
  }, 20_000);

  it('docs/tour.md: every block prints what is recorded under it', async () => {
    await checkTour('docs/tour.md');
  }, 80_000);
});
