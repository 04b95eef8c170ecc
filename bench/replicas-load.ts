/**
 * The replicas benchmark's traffic: every request goes to one of the API replicas and is recorded with its
 * answer (status, Retry-After, time); requests are launched at a fixed rate whatever the answers take (an open
 * loop, as independent clients send them), or all at once for a burst.
 */
import { performance } from 'perf_hooks';

export interface Answer {
  /** which replica answered (its index) */
  replica: number;
  op: string;
  /** 0: no answer (the connection failed) */
  status: number;
  retryAfter: string | null;
  /** the RateLimit header (`"token";r=2999;t=42, …`) */
  rateLimit: string | null;
  ms: number;
  /** when it was sent, ms since the epoch */
  sentAt: number;
  json: any;
}

export class Replicas {
  readonly answers: Answer[] = [];

  constructor(readonly bases: string[]) {}

  /** One request to replica `replica` modulo their number, recorded under `op`. */
  async call(replica: number, op: string, token: string, method: string, url: string, body?: unknown): Promise<Answer> {
    const index = replica % this.bases.length;
    const sentAt = Date.now();
    const t = performance.now();
    let answer: Answer;
    try {
      const res = await fetch(`${this.bases[index]}${url}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      let json: any = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = { text: text.slice(0, 200) };
      }
      const header = (name: string) => res.headers.get(name);
      answer = {
        replica: index,
        op,
        status: res.status,
        retryAfter: header('retry-after'),
        rateLimit: header('ratelimit'),
        ms: 0,
        sentAt,
        json,
      };
    } catch (err) {
      answer = {
        replica: index,
        op,
        status: 0,
        retryAfter: null,
        rateLimit: null,
        ms: 0,
        sentAt,
        json: { error: String(err) },
      };
    }
    answer.ms = Math.round((performance.now() - t) * 10) / 10;
    this.answers.push(answer);
    return answer;
  }

  /** The answers recorded from `from` on (an index into `answers`). */
  since(from: number): Answer[] {
    return this.answers.slice(from);
  }
}

/**
 * Launches `send(n)` `rate` times a second for `seconds`, without waiting for earlier answers, and waits for them
 * all. Returns how many were launched.
 */
export async function atFixedRate(
  rate: number,
  seconds: number,
  send: (n: number) => Promise<unknown>,
): Promise<number> {
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const inFlight: Promise<unknown>[] = [];
  for (let n = 0; n < total; n++) {
    const due = start + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(n).catch((err) => process.stderr.write(`[bench:replicas] request ${n} threw: ${err}\n`)));
  }
  await Promise.all(inFlight);
  return total;
}

/** `count` calls of `send`, at most `concurrency` at a time: a burst as fast as the replicas answer. */
export async function burst(count: number, concurrency: number, send: (n: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await send(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}

/** The answers counted by status, e.g. `{ "200": 120, "201": 40 }`. */
export function byStatus(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}
