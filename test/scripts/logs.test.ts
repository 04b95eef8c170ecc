/**
 * The servers' logs under `npm start` (scripts/lib.sh start_process, scripts/rotate-log.js): a server's stdout
 * and stderr land in .data/log/<name>.log, which rotates by size keeping LOG_FILE_KEEP files, and a log over
 * the limit when its server starts is cut to its last MiB.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

const LIB = path.join(__dirname, '..', '..', 'scripts', 'lib.sh');
const MIB = 1048576;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'logs-'));
  mkdirSync(path.join(dir, 'log'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a lib.sh function with DATA in the test's folder; its [setup] lines are returned. */
function libSh(script: string, env: Record<string, string> = {}): string {
  return execFileSync('bash', ['-c', `source "${LIB}" && DATA="$1" && ${script} 2>&1`, 'bash', dir], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

/** A server that writes a trace to stderr, then `lines` JSON lines of about 100 bytes to stdout. */
function fakeServer(lines: number): string {
  const file = path.join(dir, 'server.js');
  writeFileSync(
    file,
    `require('fs').writeSync(2, 'warning: Error: boom\\n    at main (server.js:1:1)\\n');
     for (let i = 0; i < ${lines}; i++) process.stdout.write(JSON.stringify({ pid: process.pid, i, msg: 'x'.repeat(70) }) + '\\n');`,
  );
  return file;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The rotating writer of `log` still runs (it ends once the server's output ended and it wrote the rest). */
function rotating(log: string): boolean {
  try {
    execFileSync('pgrep', ['-f', `rotate-log.js ${log} `]);
    return true;
  } catch {
    return false;
  }
}

const logLines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
/** The server's last line (number `last`) is in `file`. */
const wrote = (file: string, last: number) => existsSync(file) && readFileSync(file, 'utf8').includes(`"i":${last},`);

describe('the servers’ logs under npm start', () => {
  it('start_process writes the server’s stdout and stderr to <name>.log and records the server’s own pid', async () => {
    libSh(`start_process api "${fakeServer(3)}"`);
    const log = path.join(dir, 'log', 'api.log');
    await until(() => wrote(log, 2) && !rotating(log), 'the log');
    const lines = logLines(log);
    expect(lines.slice(0, 2)).toEqual(['warning: Error: boom', '    at main (server.js:1:1)']);
    expect(lines.slice(2).map((l) => JSON.parse(l).i)).toEqual([0, 1, 2]);
    expect(readFileSync(path.join(dir, 'api.pid'), 'utf8').trim()).toBe(String(JSON.parse(lines[2]).pid));
  });

  it('rotates the log by size into .1 … .KEEP, whole lines only', async () => {
    // about 3.5 MiB through a 1 MiB limit keeping 2: the oldest MiB is gone
    libSh(`start_process worker "${fakeServer(36000)}"`, { LOG_FILE_MAX_MB: '1', LOG_FILE_KEEP: '2' });
    const log = path.join(dir, 'log', 'worker.log');
    await until(
      () => (wrote(log, 35999) || wrote(`${log}.1`, 35999)) && !rotating(log),
      'the last line, and the rotating writer to end',
    );
    expect(existsSync(`${log}.2`)).toBe(true);
    expect(existsSync(`${log}.3`)).toBe(false);
    const kept = [`${log}.2`, `${log}.1`, log].flatMap(logLines);
    const numbers = kept.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l).i);
    // consecutive lines up to the last one: nothing lost or cut between the kept files
    expect(numbers.at(-1)).toBe(35999);
    expect(numbers).toEqual(numbers.map((_, k) => numbers[0] + k));
    expect(numbers[0]).toBeGreaterThan(0);
    // the size is checked after each write of a chunk of the pipe (64 KiB at most, and a line's end)
    for (const f of [`${log}.1`, `${log}.2`]) expect(statSync(f).size).toBeLessThanOrEqual(1.2 * MIB);
  });

  it('a log over the limit when its server starts is cut to its last MiB', () => {
    const log = path.join(dir, 'log', 'api.log');
    writeFileSync(log, `${'a'.repeat(2 * MIB)}${'b'.repeat(MIB - 4)}end\n`);
    expect(libSh(`trim_log "${log}" 2`)).toContain('api.log was 3 MiB (over 2): kept its last MiB');
    const trimmed = readFileSync(log, 'utf8');
    expect(trimmed.length).toBe(MIB);
    expect(trimmed.endsWith('bend\n')).toBe(true);

    writeFileSync(log, 'small\n');
    expect(libSh(`trim_log "${log}" 2`)).toBe('');
    expect(readFileSync(log, 'utf8')).toBe('small\n');
  });
});
