/**
 * The after-commit list (platform/db/after-commit.ts) on the real MariaDB and Temporal: a job asked for in a
 * transaction starts once it commits, before inTransaction returns, and not at all when it rolls back; asking
 * for one in a transaction that cannot start it fails. A private task queue with no worker: the runs are
 * started, never run (each test terminates its own).
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { lockSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { Space } from '../../entities/Space';
import { loadConfig } from '../../platform/config';
import type { WorkTx } from '../../platform/db/after-commit';
import { inTransaction } from '../../platform/db/transactions';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue } from '../support/temporal';

let server: TestServer;

beforeAll(async () => {
  server = await startServer(privateTaskQueue(loadConfig()));
}, 120000);

afterAll(async () => {
  await server?.close();
});

async function newSpace(): Promise<Space> {
  const { org } = await createOrg(server.ds);
  return insertSpace(server.ds, org);
}

/** Deletes the space in one transaction, which asks for its purge; `fail` throws before the commit. */
const deleteSpace = (space: Space, fail = false) =>
  inTransaction(server, async (db) => {
    await softDeleteSpace(db, await lockSpace(db, space.id));
    if (fail) throw new Error('rolled back');
  });

async function purgeRun(space: Space) {
  const client = await server.temporal.getClient();
  return client.workflow.getHandle(jobWorkflowId(spacePurgeJob, space.id, 1));
}

describe('after-commit work', () => {
  it('a rolled-back transaction starts nothing; a committed one starts the job it asked for', async () => {
    const space = await newSpace();
    await expect(deleteSpace(space, true)).rejects.toThrow('rolled back');
    expect((await server.ds.manager.findOneByOrFail(Space, { id: space.id })).deletedAt).toBeNull();
    await expect((await purgeRun(space)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    await deleteSpace(space);
    const row = await server.ds.manager.findOneByOrFail(Space, { id: space.id });
    const run = await purgeRun(space);
    try {
      const described = await run.describe();
      expect(described.status.name).toBe('RUNNING');
      // the start is done when the transaction's caller goes on: its run id is on the row
      expect(row.purge).toMatchObject({ generation: 1, runId: described.runId });
    } finally {
      await run.terminate('test done');
    }
  });

  it('asking for a job without the gateway fails loudly; in a transaction it writes nothing', async () => {
    const space = await newSpace();
    // a bare data source (a script's) gives a plain transaction: a cast past the compiler fails at run time
    await expect(
      inTransaction(server.ds, async (db) => softDeleteSpace(db as WorkTx, await lockSpace(db, space.id))),
    ).rejects.toThrow('inTransaction(work');
    const row = await server.ds.manager.findOneByOrFail(Space, { id: space.id });
    expect(row.deletedAt).toBeNull();
    expect(row.purge).toMatchObject({ generation: 0, requestedAt: null });
    // and outside any transaction too: without one, what it wrote before asking is not undone, but nobody is left
    // believing a purge was asked for
    await expect(softDeleteSpace(server.ds.manager as WorkTx, space)).rejects.toThrow('inTransaction(work');
    expect((await server.ds.manager.findOneByOrFail(Space, { id: space.id })).purge).toMatchObject({
      requestedAt: null,
    });
  });
});
