/**
 * The worker as the job benchmarks run it: a child process from dist/worker/main.js on the benchmark's private
 * task queue, without Schedules, so its resident set size is the job's alone (not the benchmark's, nor a test
 * website's it serves). Its metrics listener takes a free port, which also tells when it polls (`/readyz`).
 */
import { type ChildProcess, spawn } from 'child_process';
import * as path from 'path';
import { freePort } from './api-process';

export interface WorkerProcess {
  child: ChildProcess;
  /** asks it to drain and exit (SIGTERM), and waits until it has */
  stop(): Promise<void>;
}

/** Starts the worker with `env` over this process's environment and waits until it polls its task queues. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const port = await freePort();
  // the flags npm start and docker-compose.yml run it with
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=512', path.join(__dirname, '..', 'worker', 'main.js'), '--no-schedules'],
    {
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        WORKER_METRICS_PORT: String(port),
        TEMPORAL_METRICS_PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; ; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { child, stop };
    if (i > 300 || child.exitCode !== null) {
      await stop();
      throw new Error('the worker did not start polling');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
