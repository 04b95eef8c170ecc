/** OpenAPI specification activities: thin wrappers over domain/openapi-specs, built from the one set of dependencies. */

import type { JobRef } from '../domain/jobs/contracts';
import {
  BundledSource,
  bundleSpecSource,
  discardSpecBundle,
  saveSpecVersion,
} from '../domain/openapi-specs/processing';
import { refreshUrlSpecs } from '../domain/openapi-specs/refresh';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import { permanentFailures } from './job-activity';

export interface OpenAPISpecActivities {
  /** Fetches or reads the source, bundles and validates it; the bundle goes to the blob store. Heartbeats. */
  bundleOpenAPISpec(ref: JobRef): Promise<BundledSource>;
  /** Saves the bundle as the newest version (or notes an unchanged one); returns the latest version id. */
  saveOpenAPISpecVersion(ref: JobRef, bundled: BundledSource): Promise<string | null>;
  /** Removes the bundle of a run that ended without saving it. */
  discardOpenAPIBundle(ref: JobRef): Promise<void>;
  /** Asks for a new run of every URL-sourced spec; `organizationId` narrows it (tests). */
  refreshOpenAPISpecs(scope: { organizationId?: string }): Promise<number>;
}

export function createOpenAPISpecActivities(deps: ActivityDeps): OpenAPISpecActivities {
  const { config, clock } = deps;
  return permanentFailures<OpenAPISpecActivities>({
    bundleOpenAPISpec: (ref) =>
      heartbeating((live) => bundleSpecSource({ ...deps, bundleMaxBytes: config.openapi.bundleMaxBytes }, ref, live)),
    saveOpenAPISpecVersion: (ref, bundled) =>
      saveSpecVersion({ ...deps, versionsKept: config.openapi.versionsKept }, ref, bundled, clock()),
    discardOpenAPIBundle: (ref) => discardSpecBundle(deps, ref),
    refreshOpenAPISpecs: (scope) => refreshUrlSpecs(deps, { ...scope, now: clock() }),
  });
}
