/**
 * With RECORD_EXAMPLES=<dir>, the test run records the reference's examples: for each operation, a 2xx answer it
 * saw with its request, one JSON line each time a richer one (the longest request and JSON answer together, up to
 * EXAMPLE_MAX_BYTES) comes along, in <dir>/<pid>.jsonl. `node scripts/collect-examples.js <dir>` keeps the best of each operation in
 * api/openapi/examples.json, which the document shows; test/api/reference.test.ts holds every example to the
 * document, so they stay true.
 */
import type { Express, Response } from 'express';
import { appendFileSync, mkdirSync } from 'fs';
import { join } from 'path';

/** Longer answers make the reference hard to read: past this, the shortest one seen is kept instead. */
export const EXAMPLE_MAX_BYTES = 2500;

const best = new Map<string, number>();

/** Higher is better: the longest answer that fits, else the shortest one. */
function merit(bytes: number): number {
  return bytes <= EXAMPLE_MAX_BYTES ? bytes : -bytes;
}

export function recordExamples(app: Express): void {
  const dir = process.env.RECORD_EXAMPLES;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.jsonl`);
  const end = app.response.end as (this: Response, ...args: unknown[]) => Response;
  app.response.end = function (this: Response, ...args: unknown[]) {
    const [chunk] = args;
    const operationId = this.req.operationId;
    const json =
      (typeof chunk === 'string' || Buffer.isBuffer(chunk)) &&
      /^application\/json/.test(String(this.getHeader('Content-Type') ?? ''));
    const body = this.req.upload ? undefined : this.req.body;
    // an operation that answers no JSON (201 or 204 without a body) is shown by its request
    const sent = body && typeof body === 'object' && Object.keys(body).length ? JSON.stringify(body) : undefined;
    if (operationId && this.statusCode >= 200 && this.statusCode <= 299 && (json || sent)) {
      const answer = json ? chunk.toString() : undefined;
      // a request that sent fields shows more than one that sent none
      const score = merit((answer ?? '').length + (sent ?? '').length);
      if (score > (best.get(operationId) ?? Number.NEGATIVE_INFINITY)) {
        best.set(operationId, score);
        const request = {
          method: this.req.method,
          path: this.req.originalUrl.split('?')[0],
          ...(Object.keys(this.req.query ?? {}).length ? { query: this.req.query } : {}),
          ...(sent ? { body } : {}),
        };
        const recorded = { operationId, score, request, status: this.statusCode, answer: answer && JSON.parse(answer) };
        appendFileSync(file, `${JSON.stringify(recorded)}\n`);
      }
    }
    return end.apply(this, args);
  } as Response['end'];
}
