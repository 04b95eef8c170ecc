/**
 * A middle step of a run: the pages of one step of the plan, read from the planned source revision,
 * sent to the provider and rendered back, stored as the step's blob. A step whose blob is stored with
 * the plan's hash is done (a retried step, a run resumed after a crash, a step kept from a failed run
 * send nothing again).
 */

import { inTransaction } from '../../platform/db/transactions';
import { PageEntry, PageVersion, pageKey } from '../content/model';
import { getMany } from '../content/trie';
import { JOB_FAILURES, type JobRef } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { lockCurrentJob, reportJobProgress } from '../jobs/job-lifecycle';
import { PageText, translatablePage } from './page-text';
import type { RunDeps } from './plan';
import type { Translator } from './providers/translator';
import { planKey, RunPlan, readJson, readJsonIfStored, StepResult, stepKey, writeJson } from './run-blobs';
import { translationRunJob } from './run-job';
import { revisionReader } from './source';

export async function translateRunStep(
  deps: RunDeps & { translator: Translator },
  ref: JobRef,
  step: number,
  heartbeat: () => void = () => {},
): Promise<void> {
  const key = stepKey(ref.resourceId, ref.generation, step);
  const translation = await inTransaction(deps.ds, (db) => lockCurrentJob(db, translationRunJob, ref));
  const plan = await readJson<RunPlan>(deps.blobs, planKey(ref.resourceId, ref.generation));
  const hash = plan.stepHashes?.[step];
  const stored = await readJsonIfStored<StepResult>(deps.blobs, key);
  // one kept for a plan that a crash kept from being recorded may hold other pages
  if (stored && stored.hash === hash) return;
  const reader = (await revisionReader(deps.ds.manager, plan.sourceRevisionId))!;
  const ids = plan.steps[step];
  const entries = await getMany<PageEntry>(reader.store, reader.root, ids.map(pageKey));
  const versions = await reader.store.getMany<PageVersion>([...entries.values()].map((e) => e.v));
  const pages = ids.flatMap((id) => {
    const entry = entries.get(pageKey(id));
    return entry ? [{ id, version: entry.v, page: translatablePage(versions.get(entry.v)!) }] : [];
  });
  const translated = await deps.translator.translate(
    pages.flatMap((p) => p.page.segments),
    { source: translation.sourceLanguage, target: translation.language, instructions: translation.instructions },
    heartbeat,
  );
  const result: StepResult = { words: 0, pages: {}, versions: {}, hash };
  let at = 0;
  for (const { id, version, page } of pages) {
    const count = page.segments.length;
    result.pages[id] = page.render(translated.slice(at, at + count)) satisfies PageText;
    result.versions[id] = version;
    result.words += page.words;
    at += count;
  }
  await writeJson(deps.blobs, key, result);
  try {
    await inTransaction(deps.ds, (db) =>
      reportJobProgress(db, translationRunJob, ref, step + 1, plan.steps.length + 1),
    );
  } catch (err) {
    // the translation was deleted or the run withdrawn meanwhile: nobody will read or remove this blob
    if (err instanceof JobError && err.code === JOB_FAILURES.superseded) await deps.blobs.delete(key);
    throw err;
  }
}
