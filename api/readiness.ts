/**
 * GET /readyz: 200 when this replica can serve: MySQL, Temporal and the blob store each answer within
 * READYZ_CHECK_TIMEOUT_MS (a hung one fails its check, it is not waited on), and the replica is not
 * draining. SIGTERM turns it 503 before the drain (api/server.ts), so the load balancer stops sending
 * requests while those under way finish.
 */
import type { Express, Request, Response } from 'express';
import { Deadline, underDeadline } from '../platform/deadline';
import type { Deps } from './deps';

type Check = (signal: AbortSignal) => Promise<unknown>;

export class Readiness {
  private draining = false;

  constructor(private readonly deps: Deps) {}

  /** From now on /readyz answers 503, whatever the checks say. */
  drain(): void {
    this.draining = true;
  }

  /** True when `check` succeeds within the bound; its statements and calls are bounded by it too. */
  private within(check: Check): Promise<boolean> {
    const ms = this.deps.config.readyCheckTimeoutMs;
    const signal = AbortSignal.timeout(ms);
    const timedOut = new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(false)));
    const answered = underDeadline(new Deadline().start(ms), () => check(signal)).then(
      () => true,
      () => false,
    );
    return Promise.race([answered, timedOut]);
  }

  readonly route = async (_req: Request, res: Response): Promise<void> => {
    const [mysql, temporal, blobs] = await Promise.all([
      this.within(() => this.deps.ds.query('SELECT 1')),
      this.within(async () => {
        if (!(await this.deps.temporal.isHealthy())) throw new Error('Temporal does not answer');
      }),
      this.within((signal) => this.deps.blobs.reachable(signal)),
    ]);
    const ready = !this.draining && mysql && temporal && blobs;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : this.draining ? 'draining' : 'unavailable',
      checks: { mysql, temporal, blobs },
    });
  };
}

export function readinessOf(app: Express): Readiness {
  return app.locals.readiness as Readiness;
}
