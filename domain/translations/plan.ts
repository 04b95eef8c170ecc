/**
 * The first step of a run: which pages of the source's current revision to send. A page is sent when
 * its text changed since it was last translated (by hash) or the result space lacks it; the others
 * are carried over from the previous result. The plan goes to the blob store, split into steps of
 * TRANSLATION_PAGES_PER_STEP pages, each with the hash of what it sends; the steps a failed earlier run
 * finished with the same hash are kept; and the row records that this run's blobs are stored.
 */

import { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import { TranslationPage } from '../../entities/TranslationPage';
import type { Config } from '../../platform/config';
import { Db, inTransaction, type WorkSource } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import { canonicalJson, hashOf } from '../content/objects';
import type { JobRef } from '../jobs/contracts';
import { lockCurrentJob } from '../jobs/job-lifecycle';
import { pageTextHash } from './page-text';
import { keepFinishedSteps, planKey, RunPlan, readJsonIfStored, removeRunBlobs, writeJson } from './run-blobs';
import { translationRunJob } from './run-job';
import { flattenTree, liveSourceSpace, revisionReader } from './source';

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

async function planPages(db: Db, translation: Translation, pagesPerStep: number): Promise<RunPlan> {
  const source = await liveSourceSpace(db, translation);
  const reader = await revisionReader(db, source.revisionId);
  if (!reader) return { sourceRevisionId: null, steps: [], stepHashes: [] };
  const pages = flattenTree(await reader.tree()).map((p) => p.node);
  const result = await revisionReader(db, await resultRevisionId(db, translation));
  const present = result ? await result.hasPages(pages.map((p) => p.id)) : new Set<string>();
  const known = new Map(
    (await db.find(TranslationPage, { where: { translationId: translation.id } })).map((r) => [r.pageId, r.sourceHash]),
  );
  const hashes = new Map(pages.map((p) => [p.id, pageTextHash(p.version)]));
  const sent = pages.filter((p) => !present.has(p.id) || known.get(p.id) !== hashes.get(p.id)).map((p) => p.id);
  const steps: string[][] = [];
  for (let i = 0; i < sent.length; i += pagesPerStep) steps.push(sent.slice(i, i + pagesPerStep));
  const request = {
    source: translation.sourceLanguage,
    target: translation.language,
    instructions: translation.instructions,
  };
  const stepHashes = steps.map((ids) =>
    hashOf(canonicalJson({ ...request, pages: ids.map((id) => [id, hashes.get(id)]) })),
  );
  return { sourceRevisionId: source.revisionId, steps, stepHashes };
}

export async function planTranslationRun(deps: RunDeps, ref: JobRef): Promise<PlanSummary> {
  const key = planKey(ref.resourceId, ref.generation);
  const planned = await inTransaction(deps.ds, async (db) => {
    const translation = await lockCurrentJob(db, translationRunJob, ref);
    // a retried plan step finds its plan
    const stored =
      translation.stagedGeneration === ref.generation ? await readJsonIfStored<RunPlan>(deps.blobs, key) : null;
    if (stored) return { plan: stored, previous: null };
    const plan = await planPages(db, translation, deps.config.translation.pagesPerStep);
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
