/**
 * integration-dispatch/<eventId>: delivers one integration event to its development tunnel. Each
 * attempt POSTs the event (deliver), then writes its trace line and learns what comes next (record):
 * delivered, a retry after a back-off with jitter (a durable timer: a worker killed meanwhile is
 * replaced and the retry still happens once), or failed (a 4xx, a refused address, attempts spent).
 * The event's status ends `success` or `failed`; runJob records a failure's code on the row.
 */
import { ApplicationFailure, CancellationScope, proxyActivities, sleep } from '@temporalio/workflow';
import type { IntegrationActivities } from '../activities/integrations';
import type { IntegrationDispatchInput, JobOutcome } from '../domain/jobs/contracts';
import {
  bookkeepingActivityOptions,
  failureOf,
  heartbeatingActivityOptions,
  isSuperseded,
  jobActivityOptions,
  runJob,
} from './job';

export async function integrationDispatch(input: IntegrationDispatchInput): Promise<JobOutcome<{ attempts: number }>> {
  const { run } = input;
  // one POST is bounded by INTEGRATION_DISPATCH_TIMEOUT_MS; these bounds leave room for a busy worker
  const { deliverIntegrationEvent } = proxyActivities<IntegrationActivities>(
    heartbeatingActivityOptions(run, '2 minutes'),
  );
  const { recordDeliveryAttempt } = proxyActivities<IntegrationActivities>(jobActivityOptions(run, '30 seconds'));
  // the outage that failed the run must not leave its event pending
  const { abandonIntegrationEvent } = proxyActivities<IntegrationActivities>(bookkeepingActivityOptions(run));
  return runJob(run, async () => {
    try {
      for (let attempt = 1; ; attempt++) {
        const outcome = await deliverIntegrationEvent(run, attempt);
        const next = await recordDeliveryAttempt(run, attempt, outcome);
        if (next.state === 'delivered') return { attempts: attempt };
        if (next.state === 'failed') throw ApplicationFailure.nonRetryable(next.message, next.code);
        await sleep(next.afterMs);
      }
    } catch (err) {
      // a failure other than the delivery's own (retries of a step spent, a cancel) still ends the event
      const reason = failureOf(err).messages[0]?.message ?? 'the run failed';
      if (!isSuperseded(err)) await CancellationScope.nonCancellable(() => abandonIntegrationEvent(run, reason));
      throw err;
    }
  });
}
