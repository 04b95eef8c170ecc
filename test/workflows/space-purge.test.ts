/** The space-purge job end to end on the real Temporal dev server and MariaDB, with a short retention. */
import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import pino from 'pino';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { JobTicket, jobStatus } from '../../domain/jobs/job-kind';
import { applyJobTicket } from '../../domain/jobs/job-start';
import { startMissingRuns } from '../../domain/jobs/kinds';
import { defineSchedule, ensureSchedules } from '../../domain/jobs/schedules';
import { lockSpace, restoreSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { ContentGrant } from '../../entities/ContentGrant';
import { Space } from '../../entities/Space';
import { loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { createOrg, unique } from '../factories';
import { grant, insertSpace } from '../support/content';
import { heldBack } from '../support/held-back';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';

const RETENTION_SECONDS = 3;
const logger = pino({ level: 'silent' });
let server: TestServer;
let worker: TestWorker;

beforeAll(async () => {
  server = await startServer(
    shortJobRetries(privateTaskQueue({ ...loadConfig(), spaceRetentionSeconds: RETENTION_SECONDS, purgeBatchSize: 2 })),
  );
  worker = await startWorker(server.ds, server.config);
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

const deleteSpace = (spaceId: string) =>
  inTransaction(heldBack(server.ds), async (db) => softDeleteSpace(db, await lockSpace(db, spaceId)));
const restore = (spaceId: string) =>
  inTransaction(heldBack(server.ds), async (db) => restoreSpace(db, await lockSpace(db, spaceId), RETENTION_SECONDS));
const dispatch = (ticket: JobTicket<Space>) => applyJobTicket(server.temporal, server.ds.manager, ticket, logger);
const rowOf = (spaceId: string) => server.ds.manager.findOneBy(Space, { id: spaceId });

async function handleOf(spaceId: string, generation: number) {
  const client = await server.temporal.getClient();
  return client.workflow.getHandle(jobWorkflowId(spacePurgeJob, spaceId, generation));
}

/** How the run ended: `purged`, `superseded` (its steps found the generation moved on) or `cancelled`. */
async function endOf(spaceId: string, generation: number): Promise<string> {
  try {
    const outcome = await (await handleOf(spaceId, generation)).result();
    return outcome.state === 'done' ? outcome.result : outcome.state;
  } catch (err) {
    if (err instanceof WorkflowFailedError && err.cause instanceof CancelledFailure) return 'cancelled';
    throw err;
  }
}

async function until<T>(probe: () => Promise<T | null | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('space-purge job', () => {
  it('waits out the retention, then removes the space and its rows in batches', async () => {
    const { org, admin } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    for (let i = 0; i < 5; i++) {
      await grant(server.ds, org.id, 'space', space.id, `${admin.user.id.slice(0, 20)}${i}`, 'read');
    }
    const ticket = await deleteSpace(space.id);
    expect(ticket.row.purge.generation).toBe(1);
    await dispatch(ticket);
    const recorded = await rowOf(space.id);
    expect(recorded?.purge.runId).toBeTruthy();
    // a retried start (a retried DELETE) finds the same run instead of starting a second one
    const first = await (await handleOf(space.id, 1)).describe();
    expect(first.runId).toBe(recorded?.purge.runId);
    await dispatch(await deleteSpace(space.id));
    expect((await rowOf(space.id))?.purge.generation).toBe(1);
    expect((await (await handleOf(space.id, 1)).describe()).runId).toBe(first.runId);
    expect(first.searchAttributes).toMatchObject({
      OrganizationId: [org.id],
      SpaceId: [space.id],
      ResourceId: [space.id],
    });
    const running = await until(async () => {
      const row = await rowOf(space.id);
      return row && jobStatus(row.purge) === 'running' ? row : null;
    }, 'the run to mark itself started');
    expect(running.purge.startedAt).not.toBeNull();

    expect(await endOf(space.id, 1)).toBe('purged');
    expect(await rowOf(space.id)).toBeNull();
    expect(await server.ds.manager.countBy(ContentGrant, { targetId: space.id })).toBe(0);
  });

  it('a restore before the retention withdraws the purge and cancels its run', async () => {
    const { org } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await dispatch(await deleteSpace(space.id));
    const restored = await restore(space.id);
    expect(restored.superseded).toBe(1);
    expect(restored.row.purge).toMatchObject({ generation: 2, requestedAt: null, runId: null });
    await dispatch(restored);
    // cancelled while waiting, or its first check already found the generation moved on
    expect(['cancelled', 'superseded']).toContain(await endOf(space.id, 1));
    await new Promise((r) => setTimeout(r, RETENTION_SECONDS * 1000));
    const kept = await rowOf(space.id);
    expect(kept?.deletedAt).toBeNull();
    expect(jobStatus(kept!.purge)).toBe('idle');
  });

  it('a missed cancel still never purges a restored space', async () => {
    const { org } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await dispatch(await deleteSpace(space.id));
    await restore(space.id); // its cancel is lost
    expect(await endOf(space.id, 1)).toBe('superseded');
    expect(await rowOf(space.id)).not.toBeNull();
  });

  it("a DELETE while a restore's cancel is pending gets a purge of its own (the race)", async () => {
    const { org } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await dispatch(await deleteSpace(space.id));
    const restored = await restore(space.id); // committed; its cancel has not reached Temporal yet
    const deleted = await deleteSpace(space.id); // the DELETE arrives in between
    await dispatch(deleted);
    await dispatch(restored); // now the restore's cancel lands
    expect(deleted.row.purge.generation).toBe(3);
    expect(['cancelled', 'superseded']).toContain(await endOf(space.id, 1));
    // Before the job machinery both requests named `space-purge/<spaceId>`: the DELETE attached to
    // the dying run and the space stayed deleted for ever. Now its own run purges it.
    expect(await endOf(space.id, 3)).toBe('purged');
    expect(await rowOf(space.id)).toBeNull();
  });

  it('the reconciler starts a purge whose start was lost (crash between commit and start)', async () => {
    const { org } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await deleteSpace(space.id); // no dispatch: the process "crashed" after the commit
    expect((await rowOf(space.id))?.purge.runId).toBeNull();
    expect(
      await startMissingRuns(server.temporal, server.ds.manager, { graceSeconds: 0, organizationId: org.id, logger }),
    ).toEqual({ started: 1, failed: 0 });
    expect((await rowOf(space.id))?.purge.runId).toBeTruthy();
    expect(
      await startMissingRuns(server.temporal, server.ds.manager, { graceSeconds: 0, organizationId: org.id, logger }),
    ).toEqual({ started: 0, failed: 0 });
    expect(await endOf(space.id, 1)).toBe('purged');
  });

  it('the reconciler runs as a Temporal Schedule', async () => {
    const { org } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await deleteSpace(space.id); // start lost
    const reconcile = defineSchedule({
      name: unique('reconcile-'),
      workflow: 'reconcileJobs',
      everySeconds: () => 3600,
      args: [{ organizationId: org.id, graceSeconds: 0 }],
    });
    const [id] = await ensureSchedules(server.temporal, server.config, [reconcile]);
    const schedule = (await server.temporal.getClient()).schedule.getHandle(id);
    try {
      expect(await ensureSchedules(server.temporal, server.config, [reconcile])).toEqual([id]); // idempotent
      await schedule.trigger();
      await until(async () => (await rowOf(space.id))?.purge.runId, 'the scheduled reconciler to start the purge');
      expect(await endOf(space.id, 1)).toBe('purged');
    } finally {
      await schedule.delete();
    }
  });

  it('a purge terminated in Temporal is re-requested by the scheduled repair pass: a new generation runs', async () => {
    const { org } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await dispatch(await deleteSpace(space.id));
    await (await handleOf(space.id, 1)).terminate('terminated by the test');
    const reconcile = defineSchedule({
      name: unique('repair-'),
      workflow: 'reconcileJobs',
      everySeconds: () => 3600,
      args: [{ organizationId: org.id, graceSeconds: 0 }],
    });
    const [id] = await ensureSchedules(server.temporal, server.config, [reconcile]);
    const schedule = (await server.temporal.getClient()).schedule.getHandle(id);
    try {
      await schedule.trigger();
      // its run id is recorded once the run started: the workflow then exists to be awaited
      await until(async () => {
        const row = await rowOf(space.id);
        // (or it already ran: its success removed the row)
        return !row || (row.purge.generation === 2 && row.purge.runId);
      }, 'the repair pass to ask for generation 2 and start it');
      expect(await endOf(space.id, 2)).toBe('purged');
    } finally {
      await schedule.delete();
    }
    expect(await rowOf(space.id)).toBeNull();
  });

  it('a step that keeps failing gives up after the bounded retries and records the failure on the row', async () => {
    const { org, admin } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    await grant(server.ds, org.id, 'space', space.id, admin.user.id, 'read');
    // The database refuses to delete this space's grant, as a broken table or privilege would.
    const trigger = unique('refuse_purge_');
    await server.ds.query(
      `CREATE TRIGGER ${trigger} BEFORE DELETE ON content_grants FOR EACH ROW BEGIN IF OLD.targetId = '${space.id}' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'; END IF; END`,
    );
    try {
      await dispatch(await deleteSpace(space.id));
      await expect(endOf(space.id, 1)).rejects.toBeInstanceOf(WorkflowFailedError);
    } finally {
      await server.ds.query(`DROP TRIGGER ${trigger}`);
    }
    const row = await rowOf(space.id);
    expect(jobStatus(row!.purge)).toBe('failed');
    expect(row!.purge.errorCode).toBe('JOB_FAILED');
    expect(row!.purge.errorMessages?.[0].message).toMatch(/refused by the test/);
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
    expect(await endOf(spaceId, 1)).toBe('purged');
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
    expect(restored.body.deletedAt ?? null).toBeNull();
    expect(['cancelled', 'superseded']).toContain(await endOf(spaceId, 1));
    await new Promise((r) => setTimeout(r, RETENTION_SECONDS * 1000));
    await api.get(`/v1/spaces/${spaceId}`).expect(200);
  });
});
