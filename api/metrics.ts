/**
 * The API's metrics: every request by operation id and status, with its latency, and the requests a
 * rate limit refused. Served by api/server.ts on METRICS_PORT (platform/metrics/server.ts).
 */
import type { Express, NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { createMetricsRegistry } from '../platform/metrics/registry';
import { RATE_LIMIT_POLICIES } from './middleware/rate-limit';

export class ApiMetrics {
  readonly registry: Registry;
  private readonly requests: Histogram<'operation' | 'status'>;
  private readonly refused: Counter<'policy'>;

  constructor(ds: DataSource) {
    this.registry = createMetricsRegistry('api', ds);
    this.requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by operation id (none: a route outside the API operations) and status, from arrival to the end of the answer; _count is the number of requests',
      labelNames: ['operation', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.refused = new Counter({
      name: 'http_rate_limited_requests_total',
      help: 'Requests refused with 429, by the rate limit policy that refused them (token, user, organization, address)',
      labelNames: ['policy'],
      registers: [this.registry],
    });
    // every policy's series from the start, so that rate() sees the first refusal
    for (const policy of Object.values(RATE_LIMIT_POLICIES)) this.refused.inc({ policy }, 0);
  }

  /** First in the chain: times each request and records it when its answer is sent. */
  timeRequests() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const start = performance.now();
      // 'close' follows every answer, finished or cut off (the request log and the deadline listen to it too)
      res.once('close', () =>
        this.requests.observe(
          { operation: req.operationId ?? 'none', status: res.statusCode },
          (performance.now() - start) / 1000,
        ),
      );
      next();
    };
  }

  rateLimited(policy: string): void {
    this.refused.inc({ policy });
  }
}

/** The metrics of an app made by createApp (api/app.ts). */
export function metricsOf(app: Express): ApiMetrics {
  return app.locals.metrics as ApiMetrics;
}
