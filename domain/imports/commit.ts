/**
 * The commit step of the content-import job: every staged page and file goes into the target's
 * content as one `import` revision, in one transaction that also records the revision on the run.
 * So the import is all or nothing, a retried commit finds its revision instead of making a second,
 * and a run cancelled or superseded before it commits nothing (the run's row is locked and its
 * generation checked inside the transaction).
 */

import { ImportRun } from '../../entities/ImportRun';
import { inTransaction } from '../../platform/db/transactions';
import { commitToHead, type Head } from '../content/heads';
import { AppError } from '../errors';
import type { ImportCommit, JobRef } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { lockCurrentJob } from '../jobs/job-lifecycle';
import { Liveness, UNWATCHED } from '../jobs/liveness';
import { IMPORT_FAILURES } from './failures';
import { contentImportJob } from './import-job';
import { linkResolver } from './links';
import { planPages } from './page-tree';
import type { ImportDeps } from './stage';
import { discardStaging, ImportState, readJson, StagedBatches, stateKey } from './staging';

export function headOf(run: ImportRun): Head {
  return run.changeRequestId
    ? { kind: 'change-request', changeRequestId: run.changeRequestId }
    : { kind: 'space', spaceId: run.spaceId };
}

function committed(run: ImportRun): ImportCommit | null {
  return run.revisionId
    ? { revisionId: run.revisionId, importedResources: run.importedResources, totalResources: run.totalResources }
    : null;
}

export async function commitImport(
  deps: ImportDeps,
  ref: JobRef,
  batches: number,
  now = new Date(),
  live: Liveness = UNWATCHED,
): Promise<ImportCommit> {
  const known = await inTransaction(deps.ds, (db) => lockCurrentJob(db, contentImportJob, ref));
  const done = committed(known);
  if (done) return done;
  const state = await readJson<ImportState>(deps.blobs, stateKey(ref.resourceId, batches));
  // the pages without their markdown: each page's is read from its batch as the page is created
  const staged = new StagedBatches(deps.blobs, ref.resourceId, batches);
  const refs = await staged.refs();
  const pageIds = new Map(refs.filter((p) => p.source !== null).map((p) => [p.source!, p.id]));
  const resolveLinks = linkResolver(state.nonce, (target) => pageIds.get(target));
  const pages = planPages(refs);
  const imported = pages.filter((p) => p.batch !== null).length;
  try {
    return await inTransaction(deps, async (db) => {
      // the head first, then the run: the order every writer of both takes
      const { revision, result } = await commitToHead(
        db,
        headOf(known),
        { type: 'import', createdById: known.createdById, appBaseUrl: deps.config.appBaseUrl },
        async (editor) => {
          const run = await lockCurrentJob(db, contentImportJob, ref);
          const earlier = committed(run);
          if (earlier) return earlier; // a retried commit whose first attempt did commit: nothing to edit
          for (const [i, page] of pages.entries()) {
            // a cancel here rolls the whole commit back
            live.heartbeat({ done: i, total: pages.length });
            const markdown =
              page.batch === null ? '' : resolveLinks(await staged.markdown({ ...page, batch: page.batch }));
            await editor.createPage({ title: page.title, markdown }, { parent: page.parentId }, page.id);
            // the page versions staged so far are written: the transaction's buffer holds a batch, not the import
            if ((i + 1) % deps.config.imports.batchPages === 0) await editor.store.flush();
          }
          for (const { id, ...entry } of state.files) editor.putFile(id, entry);
          return null;
        },
      );
      if (result) return result;
      await db.update(
        ImportRun,
        { id: ref.resourceId },
        { revisionId: revision.id, importedResources: imported, totalResources: state.processed, updatedAt: now },
      );
      return { revisionId: revision.id, importedResources: imported, totalResources: state.processed };
    });
  } catch (err) {
    if (err instanceof AppError && err.status === 409) throw new JobError(IMPORT_FAILURES.target, err.message);
    throw err;
  }
}

/** After the run, whatever its end: removes its staging, and its images unless its revision references them. */
export async function discardImport(deps: ImportDeps, ref: JobRef, batches: number): Promise<void> {
  const run = await deps.ds.manager.findOneBy(ImportRun, { id: ref.resourceId });
  await discardStaging(deps, ref.resourceId, batches, !!run?.revisionId);
}
