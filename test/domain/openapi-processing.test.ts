/**
 * The openapi-process steps on real rows and the real blob store, without Temporal: each step run twice
 * gives one result, an unchanged bundle adds no version, old versions are pruned with their blobs, and a
 * step of a superseded run writes nothing.
 */
import pino from 'pino';
import { newId } from '../../domain/ids';
import type { JobRef } from '../../domain/jobs/contracts';
import { jobRef } from '../../domain/jobs/job-kind';
import { openapiProcessJob } from '../../domain/openapi-specs/process-job';
import { bundleSpecSource, saveSpecVersion } from '../../domain/openapi-specs/processing';
import { createSpec, lockSpecBySlug, replaceSpecSource, storeSourceText } from '../../domain/openapi-specs/specs';
import { OpenAPISpec } from '../../entities/OpenAPISpec';
import { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import { inTransaction } from '../../platform/db/transactions';
import { GuardedFetch } from '../../platform/net/guarded-fetch';
import { createBlobStore } from '../../platform/storage';
import { createOrg, OrgFixture } from '../factories';
import { heldBack } from '../support/held-back';
import { useServer } from '../support/server';

const server = useServer();
const doc = (title: string) => `openapi: 3.1.0\ninfo: {title: ${title}, version: "1"}\npaths: {}\n`;

function deps() {
  return {
    ds: server.ds,
    blobs: createBlobStore(server.config),
    fetch: new GuardedFetch(server.config.fetch),
    logger: pino({ level: 'silent' }),
    versionsKept: 2,
    bundleMaxBytes: server.config.openapi.bundleMaxBytes,
  };
}

async function textSpec(fx: OrgFixture, slug: string, text: string): Promise<JobRef> {
  const id = newId();
  const textKey = await storeSourceText(deps().blobs, id, text);
  const ticket = await inTransaction(heldBack(server.ds), (db) =>
    createSpec(db, { id, organizationId: fx.org.id, slug, source: { textKey }, createdById: fx.admin.user.id }),
  );
  return jobRef(openapiProcessJob, ticket.row);
}

async function republish(fx: OrgFixture, slug: string, text: string): Promise<JobRef> {
  const ticket = await inTransaction(heldBack(server.ds), async (db) => {
    const spec = (await lockSpecBySlug(db, fx.org.id, slug))!;
    return replaceSpecSource(db, spec, { textKey: await storeSourceText(deps().blobs, spec.id, text) });
  });
  return jobRef(openapiProcessJob, ticket.row);
}

const versionsOf = (specId: string) =>
  server.ds.manager.find(OpenAPISpecVersion, { where: { specId }, order: { createdAt: 'ASC' } });

describe('openapi-process steps', () => {
  it('run twice, each step gives one result; an unchanged bundle adds no version', async () => {
    const fx = await createOrg(server.ds);
    const d = deps();
    const ref = await textSpec(fx, 'twice', doc('One'));
    const bundled = await bundleSpecSource(d, ref);
    expect(await bundleSpecSource(d, ref)).toEqual(bundled);
    const versionId = await saveSpecVersion(d, ref, bundled, new Date());
    expect(await saveSpecVersion(d, ref, bundled, new Date())).toBe(versionId);
    expect((await versionsOf(ref.resourceId)).map((v) => v.id)).toEqual([versionId]);

    const same = await republish(fx, 'twice', doc('One'));
    const unchanged = await bundleSpecSource(d, same);
    expect(unchanged.bundleKey).toBeNull();
    expect(await saveSpecVersion(d, same, unchanged, new Date())).toBe(versionId);
    expect(await versionsOf(ref.resourceId)).toHaveLength(1);
    await d.fetch.close();
  });

  it('keeps the newest versions, removing older ones with their blobs', async () => {
    const fx = await createOrg(server.ds);
    const d = deps();
    let ref = await textSpec(fx, 'many', doc('V1'));
    const keys: string[] = [];
    for (let i = 1; i <= 3; i++) {
      if (i > 1) ref = await republish(fx, 'many', doc(`V${i}`));
      const bundled = await bundleSpecSource(d, ref);
      keys.push(bundled.bundleKey!);
      await saveSpecVersion(d, ref, bundled, new Date(Date.now() + i));
    }
    const kept = await versionsOf(ref.resourceId);
    expect(kept.map((v) => v.filesystemKey)).toEqual(keys.slice(1));
    await expect(d.blobs.read(keys[0])).rejects.toThrow();
    expect(JSON.parse((await d.blobs.read(keys[2])).toString())['openapi.yaml'].specification.info.title).toBe('V3');
    await d.fetch.close();
  });

  it('a step of a superseded run writes nothing', async () => {
    const fx = await createOrg(server.ds);
    const d = deps();
    const stale = await textSpec(fx, 'stale', doc('Old'));
    const bundled = await bundleSpecSource(d, stale);
    await republish(fx, 'stale', doc('New'));
    await expect(saveSpecVersion(d, stale, bundled, new Date())).rejects.toMatchObject({ code: 'SUPERSEDED' });
    await expect(bundleSpecSource(d, stale)).rejects.toMatchObject({ code: 'SUPERSEDED' });
    expect(await versionsOf(stale.resourceId)).toEqual([]);
    expect((await server.ds.manager.findOneByOrFail(OpenAPISpec, { id: stale.resourceId })).lastVersionId).toBeNull();
    await d.fetch.close();
  });
});
