/** The space-purge workflow end to end on the real Temporal dev server and MariaDB, with a short retention. */
import { WorkflowExecutionDescription } from '@temporalio/client';
import { inTransaction } from '../../domain/db';
import { cancelSpacePurge, ensureSpacePurge, reconcileSpacePurges } from '../../domain/processes/space-purge';
import { restoreSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { ContentGrant } from '../../entities/ContentGrant';
import { Space } from '../../entities/Space';
import { spacePurgeWorkflowId } from '../../workflows/ids';
import { loadConfig } from '../../domain/config';
import { createOrg } from '../factories';
import { grant, insertSpace } from '../support/content';
import { privateTaskQueue, startWorker, TestWorker } from '../support/temporal';
import { startServer, TestServer } from '../support/server';

const RETENTION_SECONDS = 3;
let server: TestServer;
let worker: TestWorker;

beforeAll(async () => {
  server = await startServer(privateTaskQueue({ ...loadConfig(), spaceRetentionSeconds: RETENTION_SECONDS, purgeBatchSize: 2 }));
  worker = await startWorker(server.ds, server.config);
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

async function resultOf(spaceId: string): Promise<string> {
  const client = await server.temporal.getClient();
  return client.workflow.getHandle(spacePurgeWorkflowId(spaceId)).result();
}

async function describe_(spaceId: string): Promise<WorkflowExecutionDescription> {
  const client = await server.temporal.getClient();
  return client.workflow.getHandle(spacePurgeWorkflowId(spaceId)).describe();
}

describe('space-purge workflow', () => {
  it('waits out the retention, then removes the space and its rows in batches', async () => {
    const { org, admin } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    for (let i = 0; i < 5; i++) {
      await grant(server.ds, org.id, 'space', space.id, `${admin.user.id.slice(0, 20)}${i}`, 'read');
    }
    await inTransaction(server.ds, (db) => softDeleteSpace(db, space));
    await ensureSpacePurge(server.temporal, server.ds, space);
    // a retried start finds the same run instead of starting a second one
    const first = await describe_(space.id);
    await ensureSpacePurge(server.temporal, server.ds, space);
    expect((await describe_(space.id)).runId).toBe(first.runId);
    expect(first.searchAttributes).toMatchObject({ OrganizationId: [org.id], SpaceId: [space.id] });
    expect(await server.ds.manager.findOneBy(Space, { id: space.id })).not.toBeNull();

    expect(await resultOf(space.id)).toBe('purged');
    expect(await server.ds.manager.findOneBy(Space, { id: space.id })).toBeNull();
    expect(await server.ds.manager.countBy(ContentGrant, { targetId: space.id })).toBe(0);
  });

  it('a restore before the retention cancels the purge and keeps the space', async () => {
    const { org } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await inTransaction(server.ds, (db) => softDeleteSpace(db, space));
    await ensureSpacePurge(server.temporal, server.ds, space);
    await inTransaction(server.ds, (db) => restoreSpace(db, space, RETENTION_SECONDS));
    await cancelSpacePurge(server.temporal, space.id);
    expect(await resultOf(space.id)).toBe('restored');
    await new Promise((r) => setTimeout(r, RETENTION_SECONDS * 1000));
    const kept = await server.ds.manager.findOneBy(Space, { id: space.id });
    expect(kept?.deletedAt).toBeNull();
  });

  it('a missed cancel still never purges a restored space', async () => {
    const { org } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await inTransaction(server.ds, (db) => softDeleteSpace(db, space));
    await ensureSpacePurge(server.temporal, server.ds, space);
    await inTransaction(server.ds, (db) => restoreSpace(db, space, RETENTION_SECONDS));
    expect(await resultOf(space.id)).toBe('restored');
    expect(await server.ds.manager.findOneBy(Space, { id: space.id })).not.toBeNull();
  });

  it('the reconciler starts the purge of a space deleted without its workflow (crash in between)', async () => {
    const { org } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await inTransaction(server.ds, (db) => softDeleteSpace(db, space));
    // no ensureSpacePurge: the process "crashed" after the commit
    await reconcileSpacePurges(server.temporal, server.ds, 0);
    const row = await server.ds.manager.findOneBy(Space, { id: space.id });
    expect(row?.purgeStartedAt).not.toBeNull();
    expect(await resultOf(space.id)).toBe('purged');
  });
});

describe('space deletion through the API', () => {
  it('DELETE hides the space at once, restore and GET answer 404 after the purge', async () => {
    const { org, admin } = await createOrg(server.ds);
    const api = server.as(admin.token);
    const created = await api.post(`/v1/orgs/${org.id}/spaces`).send({ title: 'Short-lived' }).expect(201);
    const spaceId = created.body.id;
    await api.delete(`/v1/spaces/${spaceId}`).expect(204);
    await api.get(`/v1/spaces/${spaceId}`).expect(404);
    const list = await api.get(`/v1/orgs/${org.id}/spaces`).expect(200);
    expect(list.body.items.map((s: { id: string }) => s.id)).not.toContain(spaceId);
    expect(await resultOf(spaceId)).toBe('purged');
    await api.post(`/v1/spaces/${spaceId}/restore`).expect(404);
    await api.get(`/v1/spaces/${spaceId}`).expect(404);
  });

  it('restore within the retention brings the space back and ends the purge', async () => {
    const { org, admin } = await createOrg(server.ds);
    const api = server.as(admin.token);
    const spaceId = (await api.post(`/v1/orgs/${org.id}/spaces`).send({ title: 'Saved' }).expect(201)).body.id;
    await api.delete(`/v1/spaces/${spaceId}`).expect(204);
    const restored = await api.post(`/v1/spaces/${spaceId}/restore`).expect(200);
    expect(restored.body.id).toBe(spaceId);
    expect(restored.body.deletedAt).toBeUndefined();
    expect(await resultOf(spaceId)).toBe('restored');
    await new Promise((r) => setTimeout(r, RETENTION_SECONDS * 1000));
    await api.get(`/v1/spaces/${spaceId}`).expect(200);
  });
});
