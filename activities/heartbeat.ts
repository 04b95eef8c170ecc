/**
 * The one heartbeat of long activities. The step gets a Liveness (domain/jobs/liveness.ts): each
 * `heartbeat(progress)` sends the progress as the activity's heartbeat details and throws the
 * cancellation once Temporal delivered one; `signal` aborts its fetches. A timer heartbeats in between,
 * so a step waiting on a slow source is still seen alive and still learns of a cancel (Temporal answers
 * a cancel only to a heartbeat). A dead worker's step goes silent, and is retried once the activity's
 * heartbeatTimeout (JOB_HEARTBEAT_TIMEOUT_MS) passes.
 */
import { Context } from '@temporalio/activity';
import type { Liveness, StepProgress } from '../domain/jobs/liveness';

/** The timer's period; the worker sends at most one heartbeat per throttle interval (worker/worker.ts). */
export const KEEPALIVE_MS = 1000;

export type HeartbeatContext = Pick<Context, 'heartbeat' | 'cancellationSignal'>;

export async function heartbeating<T>(
  work: (live: Liveness) => Promise<T>,
  context: HeartbeatContext = Context.current(),
): Promise<T> {
  const signal = context.cancellationSignal;
  let progress: StepProgress | undefined;
  const beat = () => context.heartbeat(progress);
  beat();
  const timer = setInterval(beat, KEEPALIVE_MS);
  try {
    return await work({
      signal,
      heartbeat: (next) => {
        signal.throwIfAborted();
        if (next) progress = next;
        beat();
      },
    });
  } catch (err) {
    // the cancel itself, not what the abort made of it (an aborted fetch reads as FETCH_ERROR)
    if (signal.aborted) throw signal.reason;
    throw err;
  } finally {
    clearInterval(timer);
  }
}
