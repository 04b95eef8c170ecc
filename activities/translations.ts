/**
 * Translation activities: thin wrappers over domain/translations, built from the one set of
 * dependencies. One translator (provider client and rate limiter) serves every run of the worker.
 * Each activity heartbeats while it works, so the workflow notices a dead worker quickly.
 */
import { Context } from '@temporalio/activity';
import type { JobRef } from '../domain/processes/job-kind';
import { applyTranslationRun, RunResult } from '../domain/translations/apply';
import { PlanSummary, planTranslationRun } from '../domain/translations/plan';
import { createTranslator } from '../domain/translations/providers/translator';
import { translateRunStep } from '../domain/translations/translate-step';
import type { ActivityDeps } from './deps';
import { permanentFailures } from './job-activity';

export interface TranslationActivities {
  /** Which pages the run sends (the plan goes to the blob store); its number of steps. */
  planTranslationRun(ref: JobRef): Promise<PlanSummary>;
  /** Translates one step's pages into a blob. */
  translateTranslationStep(ref: JobRef, step: number): Promise<void>;
  /** Writes the result space's revision and the stats. */
  applyTranslationRun(ref: JobRef): Promise<RunResult>;
}

const HEARTBEAT_MS = 500;

async function heartbeating<T>(work: (beat: () => void) => Promise<T>): Promise<T> {
  const context = Context.current();
  const beat = () => context.heartbeat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  try {
    return await work(beat);
  } finally {
    clearInterval(timer);
  }
}

export function createTranslationActivities(deps: ActivityDeps): TranslationActivities {
  const translator = createTranslator(deps.config.translation);
  const run = { ds: deps.ds, blobs: deps.blobs, config: deps.config };
  return permanentFailures<TranslationActivities>({
    planTranslationRun: (ref) => heartbeating(() => planTranslationRun(run, ref)),
    translateTranslationStep: (ref, step) =>
      heartbeating((beat) => translateRunStep({ ...run, translator }, ref, step, beat)),
    applyTranslationRun: (ref) => heartbeating(() => applyTranslationRun(run, ref, deps.clock)),
  });
}
