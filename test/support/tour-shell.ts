/**
 * One bash shell that runs blocks one after another, as a reader pastes them: variables and functions carry
 * over. Each block is sourced from a file with stdin on /dev/null (so no command of it can read the next
 * block), its stderr goes with its stdout, and a marker line with its exit status ends its output.
 */
import { ChildProcessWithoutNullStreams, spawn } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

export interface BlockRun {
  output: string;
  status: number;
  seconds: number;
}

const MARKER = '@@tour-block-ended@@';

export class TourShell {
  private readonly bash: ChildProcessWithoutNullStreams;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'tour-'));
  private buffered = '';
  private count = 0;
  private waiting: (() => void) | null = null;

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    // its own process group, so that close() also ends what the blocks left running in the background
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env, detached: true });
    this.bash.stdout.setEncoding('utf8').on('data', (chunk: string) => this.received(chunk));
    this.bash.stderr.setEncoding('utf8').on('data', (chunk: string) => this.received(chunk));
    this.bash.on('exit', () => this.received(''));
    this.bash.stdin.write('exec 2>&1\n');
  }

  private received(chunk: string): void {
    this.buffered += chunk;
    this.waiting?.();
  }

  /** Runs `code`; past `timeoutMs` the block's output so far comes back with status -1. */
  async run(code: string, timeoutMs: number): Promise<BlockRun> {
    const file = path.join(this.dir, `block-${++this.count}.sh`);
    writeFileSync(file, `${code}\n`);
    const started = Date.now();
    this.bash.stdin.write(`source ${file} </dev/null; printf '\\n${MARKER} %d\\n' $?\n`);
    const ended = new RegExp(`\\n?${MARKER} (\\d+)\\n`);
    const deadline = started + timeoutMs;
    for (;;) {
      const match = ended.exec(this.buffered);
      if (match) {
        const output = this.buffered.slice(0, match.index);
        this.buffered = this.buffered.slice(match.index + match[0].length);
        return { output, status: Number(match[1]), seconds: (Date.now() - started) / 1000 };
      }
      if (Date.now() >= deadline || this.bash.exitCode !== null) {
        const output = this.buffered;
        this.buffered = '';
        return { output, status: -1, seconds: (Date.now() - started) / 1000 };
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiting = null;
    }
  }

  close(): void {
    try {
      process.kill(-this.bash.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
