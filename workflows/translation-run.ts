/**
 * translation-run/<translationId>/<run>: translates the source space's current revision into the
 * result space. Plan (which pages changed since the last run) -> one step per group of pages sent to
 * the provider -> apply (one revision of the result, stats). Steps pass blob keys, never page text.
 * A run asked for meanwhile coalesces into one more run, which finishJob starts. Every activity
 * heartbeats, so a step of a worker that died is retried within JOB_HEARTBEAT_TIMEOUT_MS.
 * Since v3 (patch `jobs-continue-as-new`) a run whose history reached JOB_HISTORY_MAX_EVENTS continues as new
 * before its next step, carrying the plan's step count and the next step.
 */
import { patched, proxyActivities } from '@temporalio/workflow';
import type { TranslationActivities } from '../activities/translations';
import type { JobOutcome, TranslationRunInput } from '../domain/jobs/contracts';
import { continueJob, heartbeatingActivityOptions, historyBound, runJob } from './job';

export async function translationRun(
  input: TranslationRunInput,
): Promise<JobOutcome<{ space: string; revision: string }>> {
  const { planTranslationRun, applyTranslationRun } = proxyActivities<TranslationActivities>(
    heartbeatingActivityOptions(input.run, '10 minutes'),
  );
  // a step waits out the provider's rate limits and back-offs
  const { translateTranslationStep } = proxyActivities<TranslationActivities>(
    heartbeatingActivityOptions(input.run, '30 minutes'),
  );
  const history = historyBound(input.run, patched('jobs-continue-as-new'));
  return runJob(
    input.run,
    async () => {
      const steps = input.continued?.steps ?? (await planTranslationRun(input.run)).steps;
      for (let step = input.continued?.step ?? 0; step < steps; step++) {
        if (history.due()) await continueJob(translationRun, { ...input, continued: { steps, step } });
        await translateTranslationStep(input.run, step);
      }
      return applyTranslationRun(input.run);
    },
    !!input.continued,
  );
}
