/** Timing and summary statistics for the benchmark. */
import { performance } from 'perf_hooks';

/** Nearest-rank percentile of the values (p in 0..100). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface Summary {
  n: number;
  min: number;
  median: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

const round = (x: number): number => Math.round(x * 100) / 100;

export function summarize(values: number[]): Summary {
  return {
    n: values.length,
    min: round(Math.min(...values)),
    median: round(percentile(values, 50)),
    p90: round(percentile(values, 90)),
    p95: round(percentile(values, 95)),
    p99: round(percentile(values, 99)),
    max: round(Math.max(...values)),
    mean: round(values.reduce((a, b) => a + b, 0) / values.length),
  };
}

/** Milliseconds taken by `fn`, and its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}
