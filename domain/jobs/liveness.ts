/**
 * How a long job step shows it is alive and learns that its run was cancelled, without importing
 * Temporal: the activity gives it (activities/heartbeat.ts), the step calls `heartbeat` once per unit of
 * its work and hands `signal` to its fetches.
 */

/** How far a step got; the Temporal UI shows it as the activity's heartbeat details. */
export interface StepProgress {
  done: number;
  total?: number | null;
}

export interface Liveness {
  /** Call at least once per page, image, batch or attempt. Throws the cancellation once the run was cancelled. */
  heartbeat(progress?: StepProgress): void;
  /** Aborted when the run was cancelled (or its attempt timed out): give it to every fetch. */
  signal: AbortSignal;
}

/** For a step run outside an activity (tests, tools): never cancelled, heard by nobody. */
export const UNWATCHED: Liveness = { heartbeat: () => {}, signal: new AbortController().signal };
