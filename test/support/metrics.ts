/** Reading Prometheus metrics in tests: a registry scraped through its own listener, and one sample of the text. */
import type { Registry } from 'prom-client';
import { serveMetrics } from '../../platform/metrics/server';

export async function scrapeRegistry(
  registry: Registry,
): Promise<{ status: number; type: string | null; text: string }> {
  const listener = await serveMetrics(registry, '127.0.0.1', 0);
  try {
    return await scrapeUrl(`http://127.0.0.1:${listener.port}/metrics`);
  } finally {
    await listener.close();
  }
}

export async function scrapeUrl(url: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of the sample `name{…}` whose labels include each of `labels`, or undefined. */
export function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    if (Object.entries(labels).every(([k, v]) => match[2].includes(`${k}="${v}"`))) return Number(match[3]);
  }
  return undefined;
}
