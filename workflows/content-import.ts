/**
 * content-import/<importRunId>/<generation>: stages the source in batches (each saves its state, so
 * a retried batch, on another worker after a crash, starts from the last one saved), then commits
 * every page as one revision. The memo carries the progress for the Temporal UI. Whatever the end,
 * the staging is removed; a cancelled or superseded run commits nothing.
 *
 * Since v2 (patch `import-awaits-cancelled-batch`) a cancelled batch is awaited until it stopped, so the
 * staging is removed after its last write: a batch that saved meanwhile, or stored images, left them.
 * Since v4 (patch `jobs-continue-as-new`) a run whose history reached JOB_HISTORY_MAX_EVENTS continues as new
 * before its next batch, carrying the batches staged so far; the staging stays for the continuation.
 */
import {
  ActivityCancellationType,
  CancellationScope,
  patched,
  proxyActivities,
  upsertMemo,
} from '@temporalio/workflow';
import type { ImportActivities } from '../activities/imports';
import type { ContentImportInput, ImportCommit, JobOutcome } from '../domain/jobs/contracts';
import {
  bookkeepingActivityOptions,
  continueJob,
  heartbeatingActivityOptions,
  historyBound,
  isContinuation,
  runJob,
} from './job';

export async function contentImport(input: ContentImportInput): Promise<JobOutcome<ImportCommit>> {
  const { run } = input;
  const awaitsCancel = patched('import-awaits-cancelled-batch');
  const history = historyBound(run, patched('jobs-continue-as-new'));
  // CPU-heavy: on the heavy queue, with its own concurrency (worker/task-queues.ts)
  const { stageImportBatch } = proxyActivities<ImportActivities>({
    ...heartbeatingActivityOptions(run, '15 minutes'),
    taskQueue: run.heavyTaskQueue,
    ...(awaitsCancel ? { cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED } : {}),
  });
  const { commitImport } = proxyActivities<ImportActivities>(heartbeatingActivityOptions(run, '5 minutes'));
  // the outage that failed the run must not leave its staging behind
  const { discardImportStaging } = proxyActivities<ImportActivities>({
    ...bookkeepingActivityOptions(run, '5 minutes'),
    heartbeatTimeout: run.retry.heartbeatTimeoutMs,
  });
  return runJob(
    run,
    async () => {
      let batches = input.continued?.batches ?? 0;
      try {
        for (let finished = false; !finished; ) {
          if (history.due()) await continueJob(contentImport, { ...input, continued: { batches } });
          const progress = await stageImportBatch(run, batches);
          batches = progress.batches;
          finished = progress.finished;
          upsertMemo({ progress: { done: progress.done, total: progress.total } });
        }
        const committed = await commitImport(run, batches);
        upsertMemo({ revision: committed.revisionId });
        await discardImportStaging(run, batches);
        return committed;
      } catch (err) {
        if (!isContinuation(err)) await CancellationScope.nonCancellable(() => discardImportStaging(run, batches));
        throw err;
      }
    },
    !!input.continued,
  );
}
