/**
 * openapi-process/<specId>/<generation>: turns a spec's source into a version. Bundling fetches the
 * source and its external files through the guarded client and validates them; saving adds the
 * version unless the bundle is unchanged. FETCH_TIMEOUT, FETCH_ERROR and PARSE_ERROR are recorded on
 * the spec by runJob; a newer request supersedes the run, which then stops without writing.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { OpenAPISpecActivities } from '../activities/openapi-specs';
import type { JobRun } from '../domain/processes/job-kind';
import { JobOutcome, jobActivityOptions, runJob } from './job';

export interface OpenAPIProcessInput {
  specId: string;
  organizationId: string;
  run: JobRun;
}

export async function openapiProcess(input: OpenAPIProcessInput): Promise<JobOutcome<string | null>> {
  // bundling a large document with its external files takes longer than saving it
  const { bundleOpenAPISpec } = proxyActivities<OpenAPISpecActivities>(jobActivityOptions(input.run, '5 minutes'));
  const { saveOpenAPISpecVersion } = proxyActivities<OpenAPISpecActivities>(jobActivityOptions(input.run, '1 minute'));
  return runJob(input.run, async () => {
    const bundled = await bundleOpenAPISpec(input.run);
    return saveOpenAPISpecVersion(input.run, bundled);
  });
}
