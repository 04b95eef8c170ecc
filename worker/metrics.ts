/**
 * The worker's metrics beyond its registry: the Temporal SDK's own (task slots, polls, workflow and
 * activity latencies), which its core exports in Prometheus format on a loopback port of its own
 * (worker/runtime.ts).
 * The worker's /metrics appends them, so one scrape gets both.
 */
import type { MetricsSource } from '../platform/metrics/server';

export function temporalMetrics(port: number): MetricsSource {
  return async () => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2000) });
      return res.ok ? await res.text() : `# the Temporal SDK metrics answered ${res.status}\n`;
    } catch {
      return '# the Temporal SDK metrics could not be read\n';
    }
  };
}
