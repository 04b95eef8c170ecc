/**
 * translation-run/<translationId>/<run>: translates the source space's current revision into the
 * result space. Plan (which pages changed since the last run) -> one step per group of pages sent to
 * the provider -> apply (one revision of the result, stats). Steps pass blob keys, never page text.
 * A run asked for meanwhile coalesces into one more run, which finishJob starts. Every activity
 * heartbeats, so a step of a worker that died is retried within JOB_HEARTBEAT_TIMEOUT_MS.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { TranslationActivities } from '../activities/translations';
import type { JobOutcome, TranslationRunInput } from '../domain/jobs/contracts';
import { heartbeatingActivityOptions, runJob } from './job';

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
  return runJob(input.run, async () => {
    const plan = await planTranslationRun(input.run);
    for (let step = 0; step < plan.steps; step++) await translateTranslationStep(input.run, step);
    return applyTranslationRun(input.run);
  });
}
