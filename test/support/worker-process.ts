/**
 * The worker as a child process from `dist/` (built by `npm test`), for tests that `kill -9` it or stop
 * it: a private task queue, no Schedules, no metrics listeners (unless a test gives one a port), and
 * short, bounded job retries with a heartbeat timeout that lets a killed worker's activity be retried
 * quickly.
 */
import type { Client } from '@temporalio/client';
import { ChildProcess, spawn } from 'child_process';
import net from 'net';
import path from 'path';

const WORKER = path.join(__dirname, '..', '..', 'dist', 'worker', 'main.js');

export class WorkerProcesses {
  private readonly children: ChildProcess[] = [];

  /** `env`: the task queue and whatever the job under test needs, over the test process's environment. */
  constructor(private readonly env: Record<string, string>) {}

  /** `env`: this process's own settings beside the others' (its metrics port). */
  start(env: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, [WORKER, '--no-schedules'], {
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        WORKER_METRICS_PORT: '0',
        TEMPORAL_METRICS_PORT: '0',
        JOB_RETRY_INITIAL_MS: '100',
        JOB_RETRY_MAX_MS: '500',
        JOB_RETRY_MAX_ATTEMPTS: '5',
        JOB_HEARTBEAT_TIMEOUT_MS: '2000',
        ...this.env,
        ...env,
      },
      stdio: 'ignore',
    });
    this.children.push(child);
    return child;
  }

  killAll(): void {
    for (const child of this.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Waits until the worker process `pid` polls `taskQueue` for activities. */
export async function polling(client: Client, namespace: string, taskQueue: string, pid: number): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const { pollers } = await client.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType: 2, // TASK_QUEUE_TYPE_ACTIVITY
    });
    if (pollers?.some((p) => p.identity?.startsWith(`${pid}@`))) return;
  }
  throw new Error(`worker ${pid} does not poll ${taskQueue}`);
}

/** A loopback port free right now, for a child process's listener. */
export function freePort(): Promise<number> {
  const server = net.createServer();
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    }),
  );
}
