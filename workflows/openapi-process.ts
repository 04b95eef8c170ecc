/**
 * openapi-process/<specId>/<generation>: turns a spec's source into a version. Bundling fetches the
 * source and its external files through the guarded client and validates them; saving adds the
 * version unless the bundle is unchanged. FETCH_TIMEOUT, FETCH_ERROR and PARSE_ERROR are recorded on
 * the spec by runJob; a newer request supersedes the run, which then stops without writing.
 *
 * Since v3 (patch `openapi-discards-bundle`) a run that ends without its version (superseded,
 * cancelled, failed) removes the bundle it stored, after awaiting a cancelled bundling until it stopped.
 */
import { ActivityCancellationType, CancellationScope, patched, proxyActivities } from '@temporalio/workflow';
import type { OpenAPISpecActivities } from '../activities/openapi-specs';
import type { JobOutcome, OpenAPIProcessInput } from '../domain/jobs/contracts';
import { bookkeepingActivityOptions, heartbeatingActivityOptions, jobActivityOptions, runJob } from './job';

export async function openapiProcess(input: OpenAPIProcessInput): Promise<JobOutcome<string | null>> {
  const { run } = input;
  const discards = patched('openapi-discards-bundle');
  // bundling a large document with its external files takes longer than saving it
  const { bundleOpenAPISpec } = proxyActivities<OpenAPISpecActivities>({
    ...heartbeatingActivityOptions(run, '5 minutes'),
    ...(discards ? { cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED } : {}),
  });
  const { saveOpenAPISpecVersion } = proxyActivities<OpenAPISpecActivities>(jobActivityOptions(run, '1 minute'));
  // the outage that failed the run must not leave its bundle behind
  const { discardOpenAPIBundle } = proxyActivities<OpenAPISpecActivities>(bookkeepingActivityOptions(run, '1 minute'));
  return runJob(run, async () => {
    try {
      const bundled = await bundleOpenAPISpec(run);
      return await saveOpenAPISpecVersion(run, bundled);
    } catch (err) {
      if (discards) await CancellationScope.nonCancellable(() => discardOpenAPIBundle(run));
      throw err;
    }
  });
}
