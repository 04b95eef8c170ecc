/**
 * The steps of the openapi-process job, each idempotent and a no-op once the spec's generation
 * moved on (lockCurrentJob): bundle the source into a blob, then save it as a version. A failure is
 * a JobError with GitBook's code (FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR); the workflow records it, a
 * fetch that may pass (a timeout, 5xx, 429, a network failure) once its retries are spent.
 */

import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { OpenAPISpec } from '../../entities/OpenAPISpec';
import { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import { inTransaction } from '../../platform/db/transactions';
import { FetchError } from '../../platform/net/fetch-error';
import type { GuardedFetch } from '../../platform/net/guarded-fetch';
import type { BlobStore } from '../../platform/storage/blob-store';
import { newId } from '../ids';
import type { JobRef } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { lockCurrentJob } from '../jobs/job-lifecycle';
import { Liveness, UNWATCHED } from '../jobs/liveness';
import { specBundleKey } from './blob-keys';
import { Bundle, bundleOpenAPI, MAX_KEPT_ERRORS } from './bundle';
import { OPENAPI_FAILURES } from './failures';
import { openapiProcessJob } from './process-job';

export interface ProcessingDeps {
  ds: DataSource;
  blobs: BlobStore;
  fetch: GuardedFetch;
  logger: Logger;
}

/** What the bundle step hands the save step: blob keys and the hash, never the document itself. */
export interface BundledSource {
  /** null when the bundle equals the latest version's: the save adds no version */
  bundleKey: string | null;
  hash: string;
  sourceUrl: string | null;
  sourceTextKey: string | null;
}

/** GETs a URL through the guarded client as text; a fetch failure is a JobError with its code, retried when it may pass. */
async function fetchText(fetch: GuardedFetch, url: string, signal: AbortSignal): Promise<string> {
  try {
    const res = await fetch.fetch(url, {
      signal,
      headers: { accept: 'application/json, application/yaml, text/yaml, text/plain, */*' },
    });
    return res.body.toString('utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    if (err instanceof FetchError)
      throw new JobError(err.code, err.message, [{ message: err.message, code: err.reason }], {
        retryable: err.transient,
      });
    throw err;
  }
}

async function currentSpec(deps: ProcessingDeps, ref: JobRef): Promise<OpenAPISpec> {
  return inTransaction(deps.ds, (db) => lockCurrentJob(db, openapiProcessJob, ref));
}

/**
 * Fetches (or reads) the source, bundles and validates it, and stores the bundle (at most
 * `bundleMaxBytes`) under the run's key. A PARSE_ERROR records the problem count on the spec and keeps
 * the first MAX_KEPT_ERRORS. It heartbeats per file fetched; a cancel aborts the fetch under way.
 */
export async function bundleSpecSource(
  deps: ProcessingDeps & { bundleMaxBytes: number },
  ref: JobRef,
  live: Liveness = UNWATCHED,
): Promise<BundledSource> {
  const spec = await currentSpec(deps, ref);
  const text = spec.sourceUrl
    ? await fetchText(deps.fetch, spec.sourceUrl, live.signal)
    : (await deps.blobs.read(spec.sourceTextKey!)).toString('utf8');
  let files = 0;
  let bundle: Bundle;
  try {
    bundle = await bundleOpenAPI(
      text,
      spec.sourceUrl,
      (url, maxBytes) => {
        live.heartbeat({ done: ++files });
        return deps.fetch.fetch(url, { maxBytes, signal: live.signal }).then((r) => r.body.toString('utf8'));
      },
      deps.bundleMaxBytes,
    );
  } catch (err) {
    if (!(err instanceof JobError && err.code === OPENAPI_FAILURES.parse)) throw err;
    await inTransaction(deps.ds, async (db) => {
      await lockCurrentJob(db, openapiProcessJob, ref);
      await db.update(OpenAPISpec, { id: spec.id }, { lastProcessedErrorCount: err.messages.length });
    });
    throw new JobError(err.code, err.message, err.messages.slice(0, MAX_KEPT_ERRORS));
  }
  const source = { hash: bundle.hash, sourceUrl: spec.sourceUrl, sourceTextKey: spec.sourceTextKey };
  const latest = spec.lastVersionId
    ? await deps.ds.manager.findOneBy(OpenAPISpecVersion, { id: spec.lastVersionId })
    : null;
  if (latest?.contentHash === bundle.hash) return { ...source, bundleKey: null };
  // a run cancelled by now stores nothing
  live.heartbeat({ done: files });
  const bundleKey = specBundleKey(spec.id, ref.generation);
  await deps.blobs.put(bundleKey, Buffer.from(bundle.json), 'application/json');
  return { ...source, bundleKey };
}

/**
 * Saves the run's bundle as the spec's newest version (a retried save finds the version of its
 * run), or for an unchanged bundle only notes the processing. Versions beyond `versionsKept` go,
 * with the blobs no remaining version or the spec still uses.
 */
export async function saveSpecVersion(
  deps: ProcessingDeps & { versionsKept: number },
  ref: JobRef,
  bundled: BundledSource,
  now: Date,
): Promise<string | null> {
  const { versionId, dropped } = await inTransaction(deps.ds, async (db) => {
    const spec = await lockCurrentJob(db, openapiProcessJob, ref);
    const done = await db.findOneBy(OpenAPISpecVersion, { specId: spec.id, generation: ref.generation });
    if (done) return { versionId: done.id, dropped: [] };
    if (!bundled.bundleKey) {
      await db.update(OpenAPISpec, { id: spec.id }, { lastProcessedAt: now, lastProcessedErrorCount: 0 });
      return { versionId: spec.lastVersionId, dropped: [] };
    }
    const version = Object.assign(new OpenAPISpecVersion(), {
      id: newId(),
      specId: spec.id,
      organizationId: spec.organizationId,
      generation: ref.generation,
      sourceUrl: bundled.sourceUrl,
      sourceTextKey: bundled.sourceTextKey,
      filesystemKey: bundled.bundleKey,
      contentHash: bundled.hash,
      createdAt: now,
    });
    await db.insert(OpenAPISpecVersion, version);
    await db.update(
      OpenAPISpec,
      { id: spec.id },
      { lastVersionId: version.id, lastProcessedAt: now, lastProcessedErrorCount: 0, updatedAt: now },
    );
    // at most one beyond the limit: every save keeps it
    const all = await db.find(OpenAPISpecVersion, {
      where: { specId: spec.id },
      order: { createdAt: 'DESC', id: 'DESC' },
      select: { id: true, filesystemKey: true, sourceTextKey: true },
    });
    const kept = all.slice(0, deps.versionsKept);
    const old = all.slice(deps.versionsKept);
    if (!old.length) return { versionId: version.id, dropped: [] };
    await db.delete(
      OpenAPISpecVersion,
      old.map((v) => v.id),
    );
    const textsInUse = new Set([spec.sourceTextKey, ...kept.map((v) => v.sourceTextKey)]);
    const droppedKeys = old.flatMap((v) => [
      v.filesystemKey,
      ...(v.sourceTextKey && !textsInUse.has(v.sourceTextKey) ? [v.sourceTextKey] : []),
    ]);
    return { versionId: version.id, dropped: [...new Set(droppedKeys)] };
  });
  await removeBlobs(deps, dropped);
  return versionId;
}

/**
 * After a run that did not save its version (superseded, cancelled, failed): removes the bundle it may
 * have stored. A version of the run (its save committed before a later step failed) keeps it.
 */
export async function discardSpecBundle(deps: ProcessingDeps, ref: JobRef): Promise<void> {
  if (await deps.ds.manager.existsBy(OpenAPISpecVersion, { specId: ref.resourceId, generation: ref.generation }))
    return;
  await removeBlobs(deps, [specBundleKey(ref.resourceId, ref.generation)]);
}

/** Removes blobs whose rows are gone; a failure only leaves bytes behind, so it is logged, not thrown. */
export async function removeBlobs(deps: { blobs: BlobStore; logger: Logger }, keys: string[]): Promise<void> {
  for (const key of keys) {
    try {
      await deps.blobs.delete(key);
    } catch (err) {
      deps.logger.warn({ err, key }, 'could not remove an OpenAPI blob');
    }
  }
}
