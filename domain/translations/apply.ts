/**
 * The last step of a run: the translated steps written into the result space as one revision, the
 * page hashes and `stats` recorded, in one transaction; a retried step finds its run applied. The
 * result space is created first (its own transaction) and the bytes of new files copied before the
 * write, so the long part holds no lock. The run's intermediate blobs go afterwards.
 */

import { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import { TranslationPage } from '../../entities/TranslationPage';
import { type Db, inTransaction } from '../../platform/db/transactions';
import { commitToHead } from '../content/heads';
import type { JobRef } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { lockCurrentJob, reportJobProgress } from '../jobs/job-lifecycle';
import { TRANSLATION_FAILURES } from './failures';
import { filesToMirror, mirrorContent } from './mirror';
import { PageText, pageTextHash } from './page-text';
import type { RunDeps } from './plan';
import { ensureResultSpace } from './result-space';
import { planKey, RunPlan, readJson, removeRunBlobs, StepResult, stepKey } from './run-blobs';
import { translationRunJob } from './run-job';
import { flattenTree, liveSourceSpace, revisionReader } from './source';

export interface RunResult {
  space: string;
  revision: string;
}

async function readSteps(
  deps: RunDeps,
  ref: JobRef,
): Promise<{ plan: RunPlan; translated: Map<string, PageText>; words: number }> {
  const plan = await readJson<RunPlan>(deps.blobs, planKey(ref.resourceId, ref.generation));
  const translated = new Map<string, PageText>();
  let words = 0;
  for (let step = 0; step < plan.steps.length; step++) {
    const result = await readJson<StepResult>(deps.blobs, stepKey(ref.resourceId, ref.generation, step));
    for (const [id, page] of Object.entries(result.pages)) translated.set(id, page);
    words += result.words;
  }
  return { plan, translated, words };
}

/** The pages' hashes as translated; '' for pages written untranslated, so the next run sends them. */
async function recordPages(
  db: Db,
  translationId: string,
  rows: Array<{ pageId: string; sourceHash: string }>,
): Promise<number> {
  const known = new Set(
    (await db.find(TranslationPage, { where: { translationId }, select: { pageId: true } })).map((r) => r.pageId),
  );
  for (let i = 0; i < rows.length; i += 500) {
    const values = rows.slice(i, i + 500).map((r) => ({ translationId, ...r }));
    await db
      .createQueryBuilder()
      .insert()
      .into(TranslationPage)
      .values(values)
      .orUpdate(['sourceHash'], ['translationId', 'pageId'])
      .execute();
  }
  return rows.filter((r) => r.sourceHash && !known.has(r.pageId)).length;
}

export async function applyTranslationRun(deps: RunDeps, ref: JobRef, now: () => Date): Promise<RunResult> {
  const applied = (t: Translation): RunResult | null =>
    t.appliedGeneration === ref.generation ? { space: t.resultSpaceId!, revision: t.resultRevisionId! } : null;
  const done = applied(await inTransaction(deps.ds, (db) => lockCurrentJob(db, translationRunJob, ref)));
  if (done) return finished(deps, ref, done);

  const { plan, translated, words } = await readSteps(deps, ref);
  const result = await inTransaction(deps.ds, async (db) => {
    const translation = await lockCurrentJob(db, translationRunJob, ref);
    return ensureResultSpace(db, translation, await liveSourceSpace(db, translation));
  });
  const source = await revisionReader(deps.ds.manager, plan.sourceRevisionId);
  const tree = source ? await source.tree() : [];
  const files = source ? await source.files() : [];
  const copied = new Set<string>();
  const copyBlob = async (from: string, to: string) => {
    if (copied.has(to)) return;
    await deps.blobs.put(to, await deps.blobs.read(from), 'application/octet-stream');
    copied.add(to);
  };
  for (const { source: file, entry } of await filesToMirror(await revisionReader(deps.ds.manager, result.revisionId), {
    files,
    resultSpaceId: result.id,
  })) {
    await copyBlob(file.blob, entry.blob);
  }

  const outcome = await inTransaction(deps, async (db) => {
    const translation = await lockCurrentJob(db, translationRunJob, ref);
    const already = applied(translation);
    if (already) return already;
    await liveSourceSpace(db, translation);
    const space = await db.findOneByOrFail(Space, { id: result.id });
    if (space.deletedAt || space.editMode === 'locked') {
      throw new JobError(
        TRANSLATION_FAILURES.resultLocked,
        `the result space ${space.id} was ${space.deletedAt ? 'deleted' : 'locked'} during the run: run the translation again`,
      );
    }
    const options = {
      type: 'edits' as const,
      createdById: translation.createdById,
      appBaseUrl: deps.config.appBaseUrl,
    };
    const { revision, result: untranslated } = await commitToHead(
      db,
      { kind: 'space', spaceId: space.id },
      options,
      (editor) => mirrorContent(editor, { tree, files, translated, resultSpaceId: space.id, copyBlob }),
    );
    const lost = new Set(untranslated);
    const rows = flattenTree(tree)
      .filter(({ node }) => translated.has(node.id) || lost.has(node.id))
      .map(({ node }) => ({ pageId: node.id, sourceHash: lost.has(node.id) ? '' : pageTextHash(node.version) }));
    const newPages = await recordPages(db, translation.id, rows);
    const startedAt = translation.run.startedAt ?? now();
    const duration = Math.max(0, Math.round((now().getTime() - startedAt.getTime()) / 1000));
    await db.update(
      Translation,
      { id: translation.id },
      {
        resultSpaceId: space.id,
        resultRevisionId: revision.id,
        appliedGeneration: ref.generation,
        runs: translation.runs + 1,
        totalWords: translation.totalWords + words,
        totalPages: translation.totalPages + newPages,
        totalDuration: translation.totalDuration + duration,
        latestRunDuration: duration,
        latestPages: translated.size,
        latestWords: words,
      },
    );
    // the apply is the last step: the run's steps are all done
    const steps = translation.run.progressTotal ?? 1;
    await reportJobProgress(db, translationRunJob, ref, steps, steps);
    return { space: space.id, revision: revision.id };
  });
  return finished(deps, ref, outcome);
}

/** Removes the run's intermediate blobs once its result is written. */
async function finished(deps: RunDeps, ref: JobRef, outcome: RunResult): Promise<RunResult> {
  await removeRunBlobs(deps.blobs, ref.resourceId, ref.generation);
  await deps.ds.manager.update(
    Translation,
    { id: ref.resourceId, stagedGeneration: ref.generation },
    { stagedGeneration: null },
  );
  return outcome;
}
