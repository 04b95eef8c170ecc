/**
 * The API as the benchmarks that measure its memory run it: a child process on a free loopback port
 * (dist/api/server.js, configured through its environment), its resident set size sampled, and a
 * small JSON client for it.
 */
import { ChildProcess, spawn } from 'child_process';
import { readFileSync } from 'fs';
import http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';

export interface ApiProcess {
  base: string;
  child: ChildProcess;
  stop(): void;
}

export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts the API with `env` over this process's environment and waits until /healthz answers. Its metrics
 * listener takes a free port too, so a benchmark runs beside the API that `npm start` leaves on 9464.
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'api', 'server.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', METRICS_PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => void child.kill('SIGTERM');
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { base, child, stop };
    // a minute: on a busy machine the API's start (modules, the reference document) takes far longer than alone
    if (i > 600 || child.exitCode !== null) {
      stop();
      throw new Error('the API did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The child's resident set size, sampled until stopped; the maximum is what counts. */
export function sampleRss(child: ChildProcess): { stop(): { maxMiB: number; samples: number } } {
  let max = 0;
  let samples = 0;
  const timer = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      max = Math.max(max, kb);
      samples++;
    } catch {
      // the process is gone
    }
  }, 50);
  return {
    stop: () => {
      clearInterval(timer);
      return { maxMiB: Math.round((max / 1024) * 10) / 10, samples };
    },
  };
}

/** One request with a bearer token; the answer's status, JSON body (null when empty), size and headers. */
export async function api(
  base: string,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: any; bytes: number; headers: Headers }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text ? JSON.parse(text) : null,
    bytes: Buffer.byteLength(text),
    headers: res.headers,
  };
}
