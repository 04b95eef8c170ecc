/**
 * Writing OpenAPI specifications: create, replace the source, change visibility, delete. Create and
 * replace ask for the openapi-process job in the request's transaction (the caller dispatches the
 * ticket after the commit); a text source is stored in the blob store first, by its hash.
 */

import { createHash } from 'crypto';
import { idleJobState } from '../../entities/JobState';
import { OpenAPISpec, OpenAPISpecVisibility } from '../../entities/OpenAPISpec';
import { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import { insertKeepingValues, isDuplicateKey } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import { conflict } from '../errors';
import { JobTicket } from '../jobs/job-kind';
import { requestJob, withdrawJob } from '../jobs/job-lifecycle';
import { refreshOpenAPISpecLinks } from '../links/openapi-links';
import { specTextKey } from './blob-keys';
import { openapiProcessJob } from './process-job';

/** Where a spec's document comes from, once a text has been stored. */
export type StoredSource = { url: string } | { textKey: string };

/** Stores a submitted text under the spec's folder, by its hash (the same text is stored once). */
export async function storeSourceText(blobs: BlobStore, specId: string, text: string): Promise<string> {
  const key = specTextKey(specId, createHash('sha256').update(text).digest('hex'));
  await blobs.put(key, Buffer.from(text, 'utf8'), 'text/plain; charset=utf-8');
  return key;
}

function sourceColumns(source: StoredSource): Pick<OpenAPISpec, 'sourceUrl' | 'sourceTextKey'> {
  return 'url' in source
    ? { sourceUrl: source.url, sourceTextKey: null }
    : { sourceUrl: null, sourceTextKey: source.textKey };
}

const slugTaken = (slug: string) =>
  conflict(`slug: "${slug}" is already used by another specification of this organization`);

/** The spec with this slug, locked for the rest of the transaction. */
export async function lockSpecBySlug(db: Db, organizationId: string, slug: string): Promise<OpenAPISpec | null> {
  return db.findOne(OpenAPISpec, { where: { organizationId, slug }, lock: { mode: 'pessimistic_write' } });
}

/** Creates the spec (409 when its slug is taken in the organization) and asks for its first processing. */
export async function createSpec(
  db: WorkTx,
  input: { id: string; organizationId: string; slug: string; source: StoredSource; createdById: string },
  now = new Date(),
): Promise<JobTicket<OpenAPISpec>> {
  if (await db.exists(OpenAPISpec, { where: { organizationId: input.organizationId, slug: input.slug } }))
    throw slugTaken(input.slug);
  const spec = Object.assign(new OpenAPISpec(), {
    id: input.id,
    organizationId: input.organizationId,
    slug: input.slug,
    ...sourceColumns(input.source),
    visibility: 'private' as const,
    lastVersionId: null,
    lastProcessedAt: null,
    lastProcessedErrorCount: 0,
    createdById: input.createdById,
    createdAt: now,
    updatedAt: now,
    process: idleJobState(),
  });
  try {
    await insertKeepingValues(db, OpenAPISpec, spec);
  } catch (err) {
    // a concurrent create of the same slug won the unique index
    if (isDuplicateKey(err)) throw slugTaken(input.slug);
    throw err;
  }
  await refreshOpenAPISpecLinks(db, spec.organizationId, spec.slug);
  return requestJob(db, openapiProcessJob, spec, now);
}

/** Replaces the locked spec's source and asks for a new processing, which supersedes a running one. */
export async function replaceSpecSource(
  db: WorkTx,
  spec: OpenAPISpec,
  source: StoredSource,
  now = new Date(),
): Promise<JobTicket<OpenAPISpec>> {
  const changes = { ...sourceColumns(source), updatedAt: now };
  await db.update(OpenAPISpec, { id: spec.id }, changes);
  Object.assign(spec, changes);
  return requestJob(db, openapiProcessJob, spec, now);
}

export async function setSpecVisibility(
  db: Db,
  spec: OpenAPISpec,
  visibility: OpenAPISpecVisibility,
  now = new Date(),
): Promise<void> {
  if (spec.visibility === visibility) return;
  await db.update(OpenAPISpec, { id: spec.id }, { visibility, updatedAt: now });
  Object.assign(spec, { visibility, updatedAt: now });
}

/**
 * Deletes the locked spec and its versions, withdrawing a running process (whose steps then find
 * no row and write nothing; its cancel follows the commit). Returns the blob keys to remove after the
 * commit.
 */
export async function deleteSpec(db: WorkTx, spec: OpenAPISpec): Promise<{ blobKeys: string[] }> {
  await withdrawJob(db, openapiProcessJob, spec);
  const versions = await db.find(OpenAPISpecVersion, {
    where: { specId: spec.id },
    select: { filesystemKey: true, sourceTextKey: true },
  });
  const blobKeys = new Set<string>(
    versions.flatMap((v) => [v.filesystemKey, ...(v.sourceTextKey ? [v.sourceTextKey] : [])]),
  );
  if (spec.sourceTextKey) blobKeys.add(spec.sourceTextKey);
  await db.delete(OpenAPISpecVersion, { specId: spec.id });
  await db.delete(OpenAPISpec, { id: spec.id });
  await refreshOpenAPISpecLinks(db, spec.organizationId, spec.slug);
  return { blobKeys: [...blobKeys] };
}
