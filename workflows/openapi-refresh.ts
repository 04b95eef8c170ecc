/**
 * refreshOpenAPISpecs: run by the `refresh-openapi-specs` Schedule (OPENAPI_REFRESH_INTERVAL_SECONDS),
 * it asks for a new openapi-process run of every URL-sourced spec.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { OpenAPISpecActivities } from '../activities/openapi-specs';
import type { RefreshOpenAPISpecsInput } from '../domain/jobs/contracts';

const { refreshOpenAPISpecs: refresh } = proxyActivities<OpenAPISpecActivities>({
  startToCloseTimeout: '10 minutes',
  // The next scheduled pass refreshes anyway.
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

export async function refreshOpenAPISpecs(input: RefreshOpenAPISpecsInput = {}): Promise<number> {
  return refresh(input);
}
