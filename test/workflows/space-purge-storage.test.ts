/**
 * The purge reclaims storage: the content objects and blobs only the purged space referenced are
 * removed, from the local store and from S3 (versitygw), and their download URLs stop working;
 * what a duplicate still references stays until the duplicate is purged too.
 */
import { createHash } from 'crypto';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { ContentObject } from '../../entities/ContentObject';
import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import { loadConfig } from '../../platform/config';
import { createBlobStore } from '../../platform/storage';
import { createOrg } from '../factories';
import { download, upload } from '../support/content-forms';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';

const blobKey = (spaceId: string, bytes: Buffer) =>
  `files/${spaceId}/${createHash('sha256').update(bytes).digest('hex')}`;

describe.each(['local', 's3'] as const)('purge reclaims storage (%s blob store)', (backend) => {
  let server: TestServer;
  let worker: TestWorker;

  beforeAll(async () => {
    const base = loadConfig();
    server = await startServer(
      shortJobRetries(privateTaskQueue({ ...base, spaceRetentionSeconds: 2, blobs: { ...base.blobs, backend } })),
    );
    worker = await startWorker(server.ds, server.config);
  }, 120000);

  afterAll(async () => {
    await worker?.stop();
    await server?.close();
  });

  async function purge(token: string, spaceId: string): Promise<void> {
    await server.as(token).delete(`/v1/spaces/${spaceId}`).expect(204);
    const client = await server.temporal.getClient();
    expect(await client.workflow.getHandle(jobWorkflowId(spacePurgeJob, spaceId, 1)).result()).toEqual({
      state: 'done',
      result: 'purged',
    });
  }

  async function downloadStatus(url: string): Promise<number> {
    if (backend === 'local') return (await download(server, url)).status;
    return (await fetch(url)).status;
  }

  const rootOf = async (spaceId: string) => {
    const space = await server.ds.manager.findOneByOrFail(Space, { id: spaceId });
    return (await server.ds.manager.findOneByOrFail(Revision, { id: space.revisionId! })).root;
  };
  /** Whether the store still holds the blob, asked through a fresh download URL of its own. */
  const blobStatus = async (key: string) =>
    downloadStatus(
      await createBlobStore(server.config).downloadUrl(key, { filename: 'f.txt', contentType: 'text/plain' }),
    );
  const objectExists = async (hash: string) => (await server.ds.manager.countBy(ContentObject, { hash })) === 1;

  it('removes what only the purged space referenced, keeps what its duplicate shares until that is purged too', async () => {
    const { org, admin } = await createOrg(server.ds);
    const api = server.as(admin.token);
    const a = (await api.post(`/v1/orgs/${org.id}/spaces`).send({ title: 'Original' }).expect(201)).body.id as string;
    const shared = Buffer.from(`shared bytes ${a}`);
    const sharedFile = (
      await upload(server, admin.token, `/v1/spaces/${a}/content`, 'shared.txt', shared, 'text/plain').expect(201)
    ).body;
    await api.post(`/v1/spaces/${a}/content/pages`).send({ title: 'Shared page', markdown: 'in both' }).expect(201);
    const b = (await api.post(`/v1/spaces/${a}/duplicate`).expect(201)).body.id as string;
    const sharedRoot = await rootOf(b);

    const own = Buffer.from(`own bytes ${a}`);
    const ownFile = (
      await upload(server, admin.token, `/v1/spaces/${a}/content`, 'own.txt', own, 'text/plain').expect(201)
    ).body;
    await api
      .post(`/v1/spaces/${a}/content/pages`)
      .send({ title: 'Only in the original', markdown: 'gone with it' })
      .expect(201);
    const ownRoot = await rootOf(a);
    expect(await downloadStatus(ownFile.downloadURL)).toBe(200);

    await purge(admin.token, a);
    expect(await blobStatus(blobKey(a, own))).toBe(404);
    expect(await downloadStatus(ownFile.downloadURL)).toBe(404);
    expect(await objectExists(ownRoot)).toBe(false);
    // the duplicate still reads its content and its file
    expect(await blobStatus(blobKey(a, shared))).toBe(200);
    expect(await downloadStatus(sharedFile.downloadURL)).toBe(200);
    expect(await objectExists(sharedRoot)).toBe(true);
    const pages = (await api.get(`/v1/spaces/${b}/content`).expect(200)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Shared page']);
    await api.get(`/v1/spaces/${b}/content/files`).expect(200);

    await purge(admin.token, b);
    expect(await blobStatus(blobKey(a, shared))).toBe(404);
    expect(await downloadStatus(sharedFile.downloadURL)).toBe(404);
    expect(await objectExists(sharedRoot)).toBe(false);
  }, 60000);
});
