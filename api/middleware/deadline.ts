/**
 * Every request has a deadline: REQUEST_TIMEOUT_MS once its body arrived (a slow upload is the client's
 * time, not the service's). What it waits on runs under it (platform/deadline.ts): a MySQL connection, each
 * statement and each Temporal call get what the deadline leaves at most, so a hung dependency fails the
 * request instead of holding it. A request still unanswered at the deadline answers 503 with
 * Retry-After. Its statements past the deadline fail (their connection closed, their transaction rolled
 * back): what it wrote is not committed after the answer, except a COMMIT already sent, whose fate a lost
 * answer would hide from any client.
 */
import type { RequestHandler, Response } from 'express';
import { Deadline, underDeadline } from '../../platform/deadline';
import { hasBody } from '../operation';

/** Seconds a client should wait before retrying a request refused for a dependency (a 503 of ours). */
export const RETRY_AFTER_SECONDS = 5;

/** True once the deadline answered the request: whatever its handler does next goes nowhere. */
export function deadlinePassed(res: Response): boolean {
  return res.locals.deadlinePassed === true;
}

export function requestDeadline(timeoutMs: number): RequestHandler {
  return (req, res, next) => {
    const deadline = new Deadline(() => {
      if (res.headersSent) return;
      res.locals.deadlinePassed = true;
      res
        .status(503)
        .set('Retry-After', String(RETRY_AFTER_SECONDS))
        .json({
          error: {
            code: 503,
            message: `the request did not finish within ${timeoutMs} ms (REQUEST_TIMEOUT_MS); retry it`,
          },
        });
    });
    const start = () => deadline.start(timeoutMs);
    // a body the JSON parser read has ended; another (an upload) is read by its route
    if (!hasBody(req) || req.readableEnded) start();
    else req.once('end', start);
    res.once('close', () => {
      req.off('end', start);
      deadline.stop();
    });
    underDeadline(deadline, next);
  };
}
