/**
 * Translation activities: thin wrappers over domain/translations, built from the one set of
 * dependencies. One translator (provider client and rate limiter) serves every run of the worker.
 * Each activity heartbeats while it works, so the workflow notices a dead worker quickly.
 */
import type { JobRef } from '../domain/jobs/contracts';
import { applyTranslationRun, RunResult } from '../domain/translations/apply';
import { PlanSummary, planTranslationRun } from '../domain/translations/plan';
import { createTranslator } from '../domain/translations/providers/translator';
import { translateRunStep } from '../domain/translations/translate-step';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import { permanentFailures } from './job-activity';

export interface TranslationActivities {
  /** Which pages the run sends (the plan goes to the blob store); its number of steps. */
  planTranslationRun(ref: JobRef): Promise<PlanSummary>;
  /** Translates one step's pages into a blob. */
  translateTranslationStep(ref: JobRef, step: number): Promise<void>;
  /** Writes the result space's revision and the stats. */
  applyTranslationRun(ref: JobRef): Promise<RunResult>;
}

export function createTranslationActivities(deps: ActivityDeps): TranslationActivities {
  const translator = createTranslator(deps.config.translation);
  const run = { ds: deps.ds, blobs: deps.blobs, config: deps.config, temporal: deps.temporal, logger: deps.logger };
  return permanentFailures<TranslationActivities>({
    planTranslationRun: (ref) => heartbeating(() => planTranslationRun(run, ref)),
    translateTranslationStep: (ref, step) =>
      heartbeating((live) => translateRunStep({ ...run, translator }, ref, step, () => live.heartbeat())),
    applyTranslationRun: (ref) => heartbeating(() => applyTranslationRun(run, ref, deps.clock)),
  });
}
