/**
 * The first step of a run: which pages of the source's current revision to send. A page is sent when the result
 * space lacks it, when it was never translated, or when its text changed since (its content-addressed version
 * moved on and the text with it); a page whose version moved on with the same text is carried over and
 * restamped. Only page entries are compared, so a run reads the text of the pages whose version changed, not of
 * the space. The plan goes to the blob store, split into steps of TRANSLATION_PAGES_PER_STEP pages, each with the
 * hash of what it sends; the steps a failed earlier run finished with the same hash are kept; and the row records
 * that this run's blobs are stored.
 */

import { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import type { Config } from '../../platform/config';
import { Db, inTransaction, type WorkSource } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import { canonicalJson, hashOf } from '../content/objects';
import type { JobRef } from '../jobs/contracts';
import { lockCurrentJob } from '../jobs/job-lifecycle';
import { pagesInOrder, readLayout } from './layout';
import { recordedVersions, sameText } from './recorded-pages';
import { keepFinishedSteps, planKey, RunPlan, readJsonIfStored, removeRunBlobs, writeJson } from './run-blobs';
import { translationRunJob } from './run-job';
import { liveSourceSpace, revisionReader } from './source';

/** A run commits to its result space's head, which sends events: the data source with what starts them. */
export interface RunDeps extends WorkSource {
  config: Config;
  blobs: BlobStore;
}

export interface PlanSummary {
  steps: number;
  pages: number;
}

/** The live result space's current revision, if there is one. */
async function resultRevisionId(db: Db, translation: Translation): Promise<string | null> {
  if (!translation.resultSpaceId) return null;
  const result = await db.findOneBy(Space, { id: translation.resultSpaceId });
  return result && !result.deletedAt ? result.revisionId : null;
}

async function planPages(db: Db, translation: Translation, config: Config['translation']): Promise<RunPlan> {
  const source = await liveSourceSpace(db, translation);
  const reader = await revisionReader(db, source.revisionId);
  if (!reader) return { sourceRevisionId: null, steps: [], stepHashes: [], restamped: [] };
  const pages = pagesInOrder(await readLayout(reader));
  const inResult = (await readLayout(await revisionReader(db, await resultRevisionId(db, translation)))).pages;
  const recorded = await recordedVersions(db, translation.id);
  const moved = pages.flatMap(({ id, entry }) => {
    const was = recorded.get(id);
    return inResult.has(id) && was && was !== entry.v ? [{ id, version: entry.v, recorded: was }] : [];
  });
  const unchanged = await sameText(db, moved, config.applyPagesPerCommit);
  const sent = pages.filter(
    ({ id, entry }) => !inResult.has(id) || !recorded.get(id) || (recorded.get(id) !== entry.v && !unchanged.has(id)),
  );
  const steps: Array<typeof sent> = [];
  for (let i = 0; i < sent.length; i += config.pagesPerStep) steps.push(sent.slice(i, i + config.pagesPerStep));
  const request = {
    source: translation.sourceLanguage,
    target: translation.language,
    instructions: translation.instructions,
  };
  return {
    sourceRevisionId: source.revisionId,
    steps: steps.map((step) => step.map((p) => p.id)),
    stepHashes: steps.map((step) => hashOf(canonicalJson({ ...request, pages: step.map((p) => [p.id, p.entry.v]) }))),
    restamped: moved.filter((p) => unchanged.has(p.id)).map((p) => [p.id, p.version]),
  };
}

export async function planTranslationRun(deps: RunDeps, ref: JobRef): Promise<PlanSummary> {
  const key = planKey(ref.resourceId, ref.generation);
  const planned = await inTransaction(deps.ds, async (db) => {
    const translation = await lockCurrentJob(db, translationRunJob, ref);
    // a retried plan step finds its plan
    const stored =
      translation.stagedGeneration === ref.generation ? await readJsonIfStored<RunPlan>(deps.blobs, key) : null;
    if (stored) return { plan: stored, previous: null };
    const plan = await planPages(db, translation, deps.config.translation);
    const previous = translation.stagedGeneration !== ref.generation ? translation.stagedGeneration : null;
    // before the row names this run, so a retry after a crash plans and keeps them again
    await writeJson(deps.blobs, key, plan);
    if (previous !== null) await keepFinishedSteps(deps.blobs, ref.resourceId, previous, ref.generation, plan);
    await db.update(Translation, { id: translation.id }, { stagedGeneration: ref.generation });
    return { plan, previous };
  });
  // the rest of the blobs a failed earlier run left
  if (planned.previous !== null) await removeRunBlobs(deps.blobs, ref.resourceId, planned.previous);
  return { steps: planned.plan.steps.length, pages: planned.plan.steps.reduce((n, s) => n + s.length, 0) };
}
