/**
 * docker-compose.yml cannot run here (no Docker engine), so this is its check: every variable it sets on
 * the service's own containers is a setting the service reads, listed in the README's configuration table.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { loadConfig } from '../../domain/config';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

type Service = { build?: unknown; environment?: Record<string, unknown> | string[] };

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

/** The environment of each container built from this repository (the others are images' own settings). */
function serviceEnvironments(): Map<string, Record<string, string>> {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
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

describe('docker-compose.yml', () => {
  const table = configurationTable();
  const environments = serviceEnvironments();
  const config = read('domain/config.ts');

  it('builds the api, the worker and the migrations from this repository', () => {
    expect([...environments.keys()].sort()).toEqual(['api', 'migrate', 'worker']);
    expect(table.size).toBeGreaterThan(20);
  });

  it('sets only variables that the configuration table lists and the service reads', () => {
    const misfits: string[] = [];
    for (const [service, env] of environments) {
      for (const name of Object.keys(env)) {
        const row = table.get(name);
        if (!row) misfits.push(`${service}: ${name} is not in the README's configuration table`);
        else if ('Read by' in row && !/\bconfig\b/.test(row['Read by']))
          misfits.push(`${service}: ${name} is read by ${row['Read by']}, not by the service`);
        if (!config.includes(`'${name}'`)) misfits.push(`${service}: ${name} is not read in domain/config.ts`);
      }
    }
    expect(misfits).toEqual([]);
  });

  it('sets values the service accepts', () => {
    // Compose fills `${NAME:?message}` from the operator's .env and `${NAME:-fallback}` with the fallback
    const secret = 'x'.repeat(40);
    const env = Object.fromEntries(
      Object.entries(environments.get('api')!).map(([name, value]) => [
        name,
        value.replace(/\$\{(\w+)(?::\?[^}]*|:-([^}]*))\}/g, (_all, _name, fallback?: string) => fallback ?? secret),
      ]),
    );
    const saved = process.env;
    process.env = env;
    try {
      const config = loadConfig();
      expect(config.mysql).toMatchObject({ flavor: 'mysql', host: 'mysql', port: 3306 });
      expect(config.blobs.backend).toBe('s3');
      expect(config.temporal.address).toBe('temporal:7233');
    } finally {
      process.env = saved;
    }
  });

  it('gives the api and the worker the same settings', () => {
    const { HOST, PORT, ...api } = environments.get('api')!;
    expect({ HOST, PORT }).toEqual({ HOST: '0.0.0.0', PORT: '8080' });
    expect(api).toEqual(environments.get('worker'));
    expect(environments.get('migrate')).toEqual(environments.get('worker'));
  });
});
