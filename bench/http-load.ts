/**
 * The moving parts of the HTTP benchmark: a server process (the API or the floor) with its CPU time,
 * RSS and log volume read from /proc and its log file, and one fixed-concurrency autocannon run.
 */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'child_process';
import { once } from 'events';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'fs';
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';

const CLOCK_TICKS_PER_SECOND = 100;

export interface ServerProcess {
  name: string;
  base: string;
  child: ChildProcess;
  logFile: string;
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

/**
 * Starts `node <args>` on a free loopback port (given in the variable `portVariable`), its output
 * written to `logFile`, and waits until `readyPath` answers.
 */
export async function startServer(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  portVariable: string,
  readyPath: string,
  logFile: string,
): Promise<ServerProcess> {
  const port = await freePort();
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, [portVariable]: String(port) },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}; see ${logFile}`);
    const ok = await fetch(base + readyPath).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return { name, base, child, logFile };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`${name} did not answer on ${base}${readyPath} within 20 s; see ${logFile}`);
}

export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
}

/**
 * The MariaDB server that scripts/lib.sh started in the data folder (both the API and the floor use
 * it), or null for a database elsewhere (MYSQL_HOST of an existing server).
 */
function databasePid(): number | null {
  try {
    const pid = Number(readFileSync(path.resolve(__dirname, '..', '..', '.data', 'mysql.pid'), 'utf8').trim());
    return Number.isInteger(pid) && existsSync(`/proc/${pid}/stat`) ? pid : null;
  } catch {
    return null;
  }
}

/** User plus system CPU time of a process, in milliseconds. */
function cpuMs(pid: number): number {
  // fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** the server's CPU time per answered request */
  cpuMsPerRequest: number;
  /** MariaDB's CPU time per answered request (NaN, null in JSON, when the database is not this machine's process) */
  dbCpuMsPerRequest: number;
  /** bytes the server wrote to its log per answered request */
  logBytesPerRequest: number;
  maxRssBytes: number;
}

/** Counts the requests of `fresh` loads: never the same number twice in a run. */
let freshCounter = 0;

/** A load whose requests each ask something new: `true`, the path with the request's number appended; or the nth path. */
export type Fresh = boolean | ((n: number) => string);

/**
 * Loads one URL at a fixed concurrency for `seconds`, sampling the server's RSS every 100 ms.
 * `fresh`: each request's path gets a number of its own appended, or is the function's path for it, so no two
 * requests are alike.
 * Any non-2xx answer or transport error fails the benchmark: it would measure something else.
 */
export async function load(
  server: ServerProcess,
  path: string,
  token: string,
  connections: number,
  seconds: number,
  fresh: Fresh = false,
): Promise<LoadResult> {
  const pid = server.child.pid!;
  const cpuBefore = cpuMs(pid);
  const dbPid = databasePid();
  const dbCpuBefore = dbPid ? cpuMs(dbPid) : NaN;
  const logBefore = statSync(server.logFile).size;
  let maxRss = rssBytes(pid);
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, rssBytes(pid))), 100);
  const result = await autocannon({
    url: server.base + path,
    connections,
    duration: seconds,
    // as fetch and browsers send it: the service gzips what it has gzipped once (/v1/openapi.json)
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate' },
    ...(fresh
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => {
                freshCounter += 1;
                return { ...req, path: typeof fresh === 'function' ? fresh(freshCounter) : `${path}${freshCounter}` };
              },
            },
          ],
        }
      : {}),
  });
  clearInterval(sampler);
  const answered = result.requests.total;
  if (result.non2xx || result.errors || result.timeouts || !answered) {
    throw new Error(
      `${server.name} GET ${path}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts of ${answered}`,
    );
  }
  return {
    requestsPerSecond: answered / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: answered,
    cpuMsPerRequest: (cpuMs(pid) - cpuBefore) / answered,
    dbCpuMsPerRequest: dbPid ? (cpuMs(dbPid) - dbCpuBefore) / answered : NaN,
    logBytesPerRequest: (statSync(server.logFile).size - logBefore) / answered,
    maxRssBytes: Math.max(maxRss, rssBytes(pid)),
  };
}

/**
 * One result from consecutive slices of the same load: requests per second over them all, CPU and
 * log bytes per request weighted by requests, the median slice's p50, the worst slice's p99.
 */
export function combine(slices: LoadResult[]): LoadResult {
  const requests = slices.reduce((n, s) => n + s.requests, 0);
  const perRequest = (k: 'cpuMsPerRequest' | 'dbCpuMsPerRequest' | 'logBytesPerRequest') =>
    slices.reduce((n, s) => n + s[k] * s.requests, 0) / requests;
  const p50s = slices.map((s) => s.p50Ms).sort((a, b) => a - b);
  return {
    requestsPerSecond: slices.reduce((n, s) => n + s.requestsPerSecond, 0) / slices.length,
    p50Ms: p50s[Math.floor(p50s.length / 2)],
    p99Ms: Math.max(...slices.map((s) => s.p99Ms)),
    requests,
    cpuMsPerRequest: perRequest('cpuMsPerRequest'),
    dbCpuMsPerRequest: perRequest('dbCpuMsPerRequest'),
    logBytesPerRequest: perRequest('logBytesPerRequest'),
    maxRssBytes: Math.max(...slices.map((s) => s.maxRssBytes)),
  };
}
