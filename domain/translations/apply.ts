/**
 * The last step of a run: the translated steps written into the result space, then the page versions and
 * `stats` recorded; a retried step finds its run applied. The result space is created first (its own
 * transaction) and the bytes of new files copied before any write, so the long part holds no lock. Only the pages
 * that differ are written (mirror.ts), TRANSLATION_APPLY_PAGES_PER_COMMIT pages per revision, each revision in a
 * transaction of its own and each batch's text read from the steps that translated it, so memory is one batch's
 * whatever the size of the space. A run that writes more pages than that leaves intermediate revisions in the
 * result space; a retried apply writes again only what still differs. The run's intermediate blobs go afterwards.
 */

import { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import type { WorkTx } from '../../platform/db/after-commit';
import { inTransaction } from '../../platform/db/transactions';
import type { ContentEditor } from '../content/editor';
import { commitToHead } from '../content/heads';
import type { PageVersion } from '../content/model';
import { ObjectStore } from '../content/objects';
import { loadRevision } from '../content/revisions';
import type { JobRef } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { lockCurrentJob, reportJobProgress } from '../jobs/job-lifecycle';
import { TRANSLATION_FAILURES } from './failures';
import { PlacedPage, readLayout } from './layout';
import {
  editedPages,
  filesToMirror,
  MirrorFilesInput,
  mirrorFiles,
  mirrorPage,
  pagesToRemove,
  pagesToWrite,
  removePages,
} from './mirror';
import type { PageText } from './page-text';
import type { RunDeps } from './plan';
import { recordPages } from './recorded-pages';
import { ensureResultSpace } from './result-space';
import { planKey, RunPlan, readJson, removeRunBlobs, StepResult, stepKey } from './run-blobs';
import { translationRunJob } from './run-job';
import { liveSourceSpace, revisionReader } from './source';

export interface RunResult {
  space: string;
  revision: string;
}

/** The steps' blobs, read as a batch needs them; each step's words and page versions kept once read. */
class StepReader {
  private readonly stepOf = new Map<string, number>();
  private readonly read = new Map<number, { words: number; versions: Record<string, string> }>();

  constructor(
    private readonly deps: RunDeps,
    private readonly ref: JobRef,
    private readonly plan: RunPlan,
  ) {
    plan.steps.forEach((ids, step) => {
      for (const id of ids) this.stepOf.set(id, step);
    });
  }

  has(pageId: string): boolean {
    return this.stepOf.has(pageId);
  }

  /** The translated text of the pages of `ids` that were sent. */
  async texts(ids: string[]): Promise<Map<string, PageText>> {
    const steps = new Set(ids.flatMap((id) => (this.stepOf.has(id) ? [this.stepOf.get(id)!] : [])));
    const out = new Map<string, PageText>();
    for (const step of steps) {
      const result = await this.step(step);
      for (const id of ids) if (this.stepOf.get(id) === step) out.set(id, result.pages[id]);
    }
    return out;
  }

  /** Words sent and the sent pages' versions, over every step. */
  async totals(): Promise<{ words: number; pages: Array<{ pageId: string; sourceHash: string }> }> {
    for (let step = 0; step < this.plan.steps.length; step++) if (!this.read.has(step)) await this.step(step);
    let words = 0;
    const pages: Array<{ pageId: string; sourceHash: string }> = [];
    for (const { words: w, versions } of this.read.values()) {
      words += w;
      for (const [pageId, sourceHash] of Object.entries(versions)) pages.push({ pageId, sourceHash });
    }
    return { words, pages };
  }

  private async step(step: number): Promise<StepResult> {
    const result = await readJson<StepResult>(this.deps.blobs, stepKey(this.ref.resourceId, this.ref.generation, step));
    this.read.set(step, { words: result.words, versions: result.versions });
    return result;
  }
}

export async function applyTranslationRun(deps: RunDeps, ref: JobRef, now: () => Date): Promise<RunResult> {
  const applied = (t: Translation): RunResult | null =>
    t.appliedGeneration === ref.generation ? { space: t.resultSpaceId!, revision: t.resultRevisionId! } : null;
  const done = applied(await inTransaction(deps.ds, (db) => lockCurrentJob(db, translationRunJob, ref)));
  if (done) return finished(deps, ref, done);

  const plan = await readJson<RunPlan>(deps.blobs, planKey(ref.resourceId, ref.generation));
  const { result, lastApplied } = await inTransaction(deps.ds, async (db) => {
    const translation = await lockCurrentJob(db, translationRunJob, ref);
    const space = await ensureResultSpace(db, translation, await liveSourceSpace(db, translation));
    return { result: space, lastApplied: translation.resultRevisionId };
  });
  const db = deps.ds.manager;
  const source = await revisionReader(db, plan.sourceRevisionId);
  const current = await revisionReader(db, result.revisionId);
  const [sourceLayout, resultLayout] = [await readLayout(source), await readLayout(current)];
  const steps = new StepReader(deps, ref, plan);
  const restamped = new Map(plan.restamped ?? []);
  const pinned = new Set([...plan.steps.flat(), ...restamped.keys()]);
  if (lastApplied && current) {
    const before = (await loadRevision(db, lastApplied)).root;
    for (const id of await editedPages(current.store, before, current.root)) pinned.add(id);
  }

  const copied = new Set<string>();
  const filesInput: MirrorFilesInput = {
    source: sourceLayout,
    result: resultLayout,
    resultSpaceId: result.id,
    copyBlob: async (from, to) => {
      if (copied.has(to)) return;
      await deps.blobs.put(to, await deps.blobs.read(from), 'application/octet-stream');
      copied.add(to);
    },
  };
  for (const { source: file, entry } of filesToMirror(filesInput)) await filesInput.copyBlob(file.blob, entry.blob);

  const write = (edit: (editor: ContentEditor, db: WorkTx) => Promise<void>) =>
    commitToResult(deps, ref, result.id, edit);
  let revision: string;
  const batch = deps.config.translation.applyPagesPerCommit;
  const pages = pagesToWrite(sourceLayout, resultLayout, pinned);
  for (let i = 0; i < pages.length; i += batch) {
    const chunk = pages.slice(i, i + batch);
    const texts = await steps.texts(chunk.map((p) => p.id));
    // a store of its own per batch: the versions read go with it
    const versions = await new ObjectStore(db).getMany<PageVersion>(chunk.map((p) => p.entry.v));
    revision = await write((editor, tx) =>
      writePages(editor, tx, ref, chunk, (p) => versions.get(p.entry.v)!, texts, restamped),
    );
  }
  revision = await write(async (editor) => {
    await removePages(editor, pagesToRemove(sourceLayout, resultLayout));
    await mirrorFiles(editor, filesInput);
  });

  const totals = await steps.totals();
  const outcome = await inTransaction(deps, async (tx) => {
    const translation = await lockCurrentJob(tx, translationRunJob, ref);
    const already = applied(translation);
    if (already) return already;
    await liveSourceSpace(tx, translation);
    const newPages = await recordPages(tx, translation.id, totals.pages);
    const startedAt = translation.run.startedAt ?? now();
    const duration = Math.max(0, Math.round((now().getTime() - startedAt.getTime()) / 1000));
    await tx.update(
      Translation,
      { id: translation.id },
      {
        resultSpaceId: result.id,
        resultRevisionId: revision,
        appliedGeneration: ref.generation,
        runs: translation.runs + 1,
        totalWords: translation.totalWords + totals.words,
        totalPages: translation.totalPages + newPages,
        totalDuration: translation.totalDuration + duration,
        latestRunDuration: duration,
        latestPages: totals.pages.length,
        latestWords: totals.words,
      },
    );
    // the apply is the last step: the run's steps are all done
    const stepCount = translation.run.progressTotal ?? 1;
    await reportJobProgress(tx, translationRunJob, ref, stepCount, stepCount);
    return { space: result.id, revision };
  });
  return finished(deps, ref, outcome);
}

/**
 * One batch of pages into the result; the versions of pages created untranslated ('', to send them next time) and
 * of restamped ones recorded with it. Sent pages' versions are recorded at the end, with the stats.
 */
async function writePages(
  editor: ContentEditor,
  tx: WorkTx,
  ref: JobRef,
  pages: PlacedPage[],
  versionOf: (page: PlacedPage) => PageVersion,
  texts: Map<string, PageText>,
  restamped: Map<string, string>,
): Promise<void> {
  const rows: Array<{ pageId: string; sourceHash: string }> = [];
  for (const page of pages) {
    const untranslated = await mirrorPage(editor, page, versionOf(page), texts.get(page.id));
    if (untranslated) rows.push({ pageId: page.id, sourceHash: '' });
    else if (restamped.has(page.id)) rows.push({ pageId: page.id, sourceHash: restamped.get(page.id)! });
  }
  await recordPages(tx, ref.resourceId, rows);
}

/** Commits `edit` to the result space's head in a transaction of its own; returns the head's revision after it. */
async function commitToResult(
  deps: RunDeps,
  ref: JobRef,
  resultSpaceId: string,
  edit: (editor: ContentEditor, tx: WorkTx) => Promise<void>,
): Promise<string> {
  return inTransaction(deps, async (tx) => {
    const translation = await lockCurrentJob(tx, translationRunJob, ref);
    await liveSourceSpace(tx, translation);
    const space = await tx.findOneByOrFail(Space, { id: resultSpaceId });
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
    const { revision } = await commitToHead(tx, { kind: 'space', spaceId: space.id }, options, (editor) =>
      edit(editor, tx),
    );
    return revision.id;
  });
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
