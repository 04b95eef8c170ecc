/**
 * docker-compose.yml cannot run here (no Docker engine), so this is its check: it is a valid Compose file
 * (the specification's JSON schema, vendored in compose-spec/) once the values docs/deploy.md §6 makes are
 * filled in; it holds no secret and refuses to start without each; every variable it sets on the service's
 * own containers is a setting the service reads, listed in the README's configuration table; and what it
 * promises an operator (loopback-only Temporal, reachable metrics, health checks, shutdown time) holds.
 */
import Ajv2020 from 'ajv/dist/2020';
import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { loadConfig } from '../../platform/config';
import { withEnv } from '../support/env';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

type Service = {
  build?: unknown;
  environment?: Record<string, unknown> | string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
};
type Compose = { services: Record<string, Service> };

/** The README's configuration rows: variable name -> the cells of its row, by column title. */
function configurationTable(): Map<string, Record<string, string>> {
  const rows = new Map<string, Record<string, string>>();
  let columns: string[] | null = null;
  for (const line of read('README.md').split('\n')) {
    if (!line.startsWith('|')) {
      columns = null;
      continue;
    }
    const cells = line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((c) => c.trim());
    if (!columns) {
      columns = cells[0] === 'Variable' ? cells : [];
      continue;
    }
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[0])?.[1];
    if (name) rows.set(name, Object.fromEntries(columns.map((title, i) => [title, cells[i] ?? ''])));
  }
  return rows;
}

/** The `.env` that docs/deploy.md §6 tells the operator to make, made by running its lines. */
function exampleEnv(): Record<string, string> {
  const doc = read('docs/deploy.md');
  const section = doc.slice(doc.indexOf('## 6. Docker Compose'), doc.indexOf('## 7.'));
  const making = /^cat > \.env <<EOF\n[\s\S]*?^EOF$/m.exec(section)?.[0];
  if (!making) throw new Error('docs/deploy.md §6 has no `cat > .env <<EOF … EOF` block');
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-compose-'));
  try {
    execFileSync('bash', ['-euo', 'pipefail', '-c', making], { cwd: dir });
    return Object.fromEntries(
      readFileSync(path.join(dir, '.env'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Compose's interpolation of one value: `$$`, `${NAME}`, `${NAME:-fallback}` and `${NAME:?message}` (which fails when unset). */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{(\w+)(?:(:-|:\?)([^}]*))?\}/g, (all, name?: string, op?: string, arg?: string) => {
    if (all === '$$') return '$';
    const set = env[name!];
    if (set) return set;
    if (op === ':?') throw new Error(`required variable ${name} is missing a value: ${arg}`);
    return op === ':-' ? arg! : '';
  });
}

/** Every string of the parsed file interpolated, as Compose does before it validates. */
function interpolated<T>(node: T, env: Record<string, string>): T {
  if (typeof node === 'string') return interpolate(node, env) as T;
  if (Array.isArray(node)) return node.map((item) => interpolated(item, env)) as T;
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolated(v, env)])) as T;
  return node;
}

const raw = parse(read('docker-compose.yml'), { merge: true }) as Compose;

/** The environment of each container built from this repository (the others are images' own settings). */
function serviceEnvironments(compose: Compose): Map<string, Record<string, string>> {
  const environments = new Map<string, Record<string, string>>();
  for (const [name, service] of Object.entries(compose.services)) {
    if (!service.build) continue;
    const env = Array.isArray(service.environment)
      ? Object.fromEntries(service.environment.map((pair) => [pair.split('=')[0], pair.slice(pair.indexOf('=') + 1)]))
      : Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, String(v)]));
    environments.set(name, env);
  }
  return environments;
}

/** "30s", "1m30s" in seconds. */
function seconds(duration: string): number {
  let total = 0;
  for (const [, n, unit] of duration.matchAll(/(\d+)(h|m|s)/g)) total += Number(n) * { h: 3600, m: 60, s: 1 }[unit]!;
  return total;
}

describe('docker-compose.yml', () => {
  const table = configurationTable();
  const env = exampleEnv();
  const compose = interpolated(raw, env);
  const environments = serviceEnvironments(compose);
  const config = read('platform/config.ts');
  const serviceConfig = () => withEnv(environments.get('worker')!, loadConfig);

  it('is valid against the Compose specification once the values docs/deploy.md makes are filled in', () => {
    const schema = JSON.parse(read('test/deploy/compose-spec/compose-spec.json'));
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    // compose-go's own checker of its one custom format
    ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
    const validate = ajv.compile(schema);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    // and the schema is not a pass-all: a misspelt key is refused
    expect(validate({ services: { api: { imag: 'x' } } })).toBe(false);
  });

  it('holds no secret, and refuses to start without each', () => {
    const secretLike = /PASSWORD|PWD|SECRET|_KEY(_ID)?$/;
    const written: string[] = [];
    for (const [service, { environment }] of Object.entries(raw.services))
      for (const [name, value] of Object.entries(environment ?? {}))
        if (secretLike.test(name) && !/^\$\{\w+:\?[^}]+\}$/.test(String(value)))
          written.push(`${service}: ${name}=${value}`);
    expect(written).toEqual([]);
    expect(Object.keys(env).sort()).toEqual(
      [...new Set([...read('docker-compose.yml').matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]))].sort(),
    );
    for (const name of Object.keys(env))
      expect(() => interpolated(raw, { ...env, [name]: '' })).toThrow(`required variable ${name} is missing a value`);
  });

  it('builds the api, the worker and the one-shots migrate and prepare-namespace from this repository', () => {
    expect([...environments.keys()].sort()).toEqual(['api', 'migrate', 'prepare-namespace', 'worker']);
    expect(table.size).toBeGreaterThan(20);
  });

  it('sets only variables that the configuration table lists and the service reads', () => {
    const misfits: string[] = [];
    for (const [service, serviceEnv] of serviceEnvironments(raw)) {
      for (const name of Object.keys(serviceEnv)) {
        const row = table.get(name);
        if (!row) misfits.push(`${service}: ${name} is not in the README's configuration table`);
        else if ('Read by' in row && !/\bconfig\b/.test(row['Read by']))
          misfits.push(`${service}: ${name} is read by ${row['Read by']}, not by the service`);
        if (!config.includes(`'${name}'`)) misfits.push(`${service}: ${name} is not read in platform/config.ts`);
      }
    }
    expect(misfits).toEqual([]);
  });

  it('sets values the service accepts', () => {
    const loaded = serviceConfig();
    expect(loaded.mysql).toMatchObject({ flavor: 'mysql', host: 'mysql', port: 3306, password: env.MYSQL_PASSWORD });
    expect(loaded.blobs.backend).toBe('s3');
    expect(loaded.temporal.address).toBe('temporal:7233');
  });

  it('gives the api, the worker and the one-shots the same settings', () => {
    const { HOST, PORT, ...api } = environments.get('api')!;
    expect({ HOST, PORT }).toEqual({ HOST: '0.0.0.0', PORT: '8080' });
    for (const other of ['worker', 'migrate', 'prepare-namespace']) expect(environments.get(other)).toEqual(api);
  });

  it('publishes Temporal on loopback only, and the metrics to the compose network', () => {
    for (const name of ['temporal', 'temporal-ui'])
      for (const port of compose.services[name].ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
    expect(serviceConfig().metrics.host).toBe('0.0.0.0');
    for (const service of Object.values(compose.services))
      for (const port of service.ports ?? []) expect(port).not.toMatch(/:(9464|9465|9466)$/);
  });

  it('checks the health of the api and the worker, and gives each more time to stop than it takes', () => {
    const loaded = serviceConfig();
    const { api, worker } = compose.services;
    expect(api.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${environments.get('api')!.PORT}/readyz`);
    expect(worker.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${loaded.metrics.workerPort}/healthz`);
    // the API: not-ready delay, then a drain of at most 15 s (api/server.ts)
    expect(seconds(api.stop_grace_period!)).toBeGreaterThan(loaded.apiShutdownDelaySeconds + 15);
    expect(seconds(worker.stop_grace_period!)).toBeGreaterThan(loaded.worker.shutdownForceSeconds);
  });

  it('runs Temporal from the server image, and registers search attributes with the service itself', () => {
    const images = Object.fromEntries(
      Object.entries(raw.services).map(([name, s]) => [name, (s as { image?: string }).image]),
    );
    expect(images.temporal).toMatch(/^temporalio\/server:/);
    expect(Object.values(images).some((image) => image?.includes('auto-setup'))).toBe(false);
    expect((raw.services['prepare-namespace'] as { command: string[] }).command).toEqual([
      'node',
      'dist/worker/prepare-namespace.js',
    ]);
  });
});
