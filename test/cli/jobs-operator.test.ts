/**
 * `cli jobs retry` and `cli jobs cancel` (the compiled CLI, as operators run it) against the
 * real Temporal dev server, with a worker on a private task queue that the CLI is pointed at.
 */
import { execFile } from 'child_process';
import * as path from 'path';
import pino from 'pino';
import { promisify } from 'util';
import { jobWorkflowId } from '../../domain/jobs/contracts';
import { jobRef } from '../../domain/jobs/job-kind';
import { recordJobEnd } from '../../domain/jobs/job-lifecycle';
import { applyJobTicket } from '../../domain/jobs/job-start';
import { lockSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { Space } from '../../entities/Space';
import { loadConfig } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { heldBack } from '../support/held-back';
import { startServer, TestServer } from '../support/server';
import { privateTaskQueue, shortJobRetries, startWorker, TestWorker } from '../support/temporal';

const logger = pino({ level: 'silent' });
const CLI = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
// long enough that a purge still waits while the CLI (a process of its own) runs twice on a busy machine
const RETENTION_SECONDS = 8;
let server: TestServer;
let worker: TestWorker;

beforeAll(async () => {
  server = await startServer(
    shortJobRetries(privateTaskQueue({ ...loadConfig(), spaceRetentionSeconds: RETENTION_SECONDS })),
  );
  worker = await startWorker(server.ds, server.config);
}, 120000);

afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

/** Runs the CLI with the test's database and task queue; resolves with its exit code and output. */
function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)('node', [CLI, ...args], {
    env: { ...process.env, TEMPORAL_TASK_QUEUE: server.config.temporal.taskQueue, ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );
}

const PURGED = { state: 'done', result: 'purged' };
const rowOf = (spaceId: string) => server.ds.manager.findOneByOrFail(Space, { id: spaceId });
const purgeHandle = async (spaceId: string, generation: number) =>
  (await server.temporal.getClient()).workflow.getHandle(jobWorkflowId(spacePurgeJob, spaceId, generation));

async function deletedSpace(dispatch: boolean) {
  const { org } = await createOrg(server.ds);
  const space = await insertSpace(server.ds, org);
  const ticket = await inTransaction(heldBack(server.ds), async (db) =>
    softDeleteSpace(db, await lockSpace(db, space.id)),
  );
  if (dispatch) await applyJobTicket(server.temporal, server.ds.manager, ticket, logger);
  return space.id;
}

describe('cli jobs retry and cancel', () => {
  it('retry runs a failed job as a new generation; a running or succeeded one is exit 6, none exit 3', async () => {
    const spaceId = await deletedSpace(false);
    await inTransaction(heldBack(server.ds), async (db) =>
      recordJobEnd(db, spacePurgeJob, jobRef(spacePurgeJob, await rowOf(spaceId)), {
        code: 'JOB_FAILED',
        messages: [{ message: 'boom' }],
      }),
    );
    const retried = await cli(['jobs', 'retry', spaceId, '--json']);
    expect(retried.code).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({
      resourceId: spaceId,
      generation: 2,
      workflowId: jobWorkflowId(spacePurgeJob, spaceId, 2),
      errorCode: null,
    });
    const again = await cli(['jobs', 'retry', spaceId, '--json']);
    expect(again.code).toBe(6);
    expect(JSON.parse(again.stderr).error.message).toMatch(/is running: cancel it first/);
    expect(await (await purgeHandle(spaceId, 2)).result()).toEqual(PURGED);
    expect((await cli(['jobs', 'retry', 'no-such-resource'])).code).toBe(3);
  }, 60000);

  it('cancel ends a running job as CANCELLED and stops its run; then retry runs it again', async () => {
    const spaceId = await deletedSpace(true);
    const cancelled = await cli(['jobs', 'cancel', spaceId, '--json']);
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ status: 'failed', errorCode: 'CANCELLED' });
    // the run saw its cancel
    await expect((await purgeHandle(spaceId, 1)).result()).rejects.toMatchObject({
      cause: { name: 'CancelledFailure' },
    });
    expect((await rowOf(spaceId)).deletedAt).not.toBeNull();
    expect((await cli(['jobs', 'cancel', spaceId])).code).toBe(6);
    const retried = await cli(['jobs', 'retry', spaceId, '--json']);
    expect(retried.code).toBe(0);
    const { generation } = JSON.parse(retried.stdout);
    expect(await (await purgeHandle(spaceId, generation)).result()).toEqual(PURGED);
  }, 60000);

  it('retry of a run lost in Temporal records RUN_LOST and asks again (the repair rule)', async () => {
    const spaceId = await deletedSpace(true);
    await (await purgeHandle(spaceId, 1)).terminate('terminated by the test');
    const retried = await cli(['jobs', 'retry', spaceId, '--json']);
    expect(retried.code).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({ generation: 2 });
    expect(await (await purgeHandle(spaceId, 2)).result()).toEqual(PURGED);
  }, 60000);

  it('Temporal out of reach is exit 4, and nothing changes', async () => {
    const spaceId = await deletedSpace(false); // pending: retry would start it, cancel would end it
    const before = (await rowOf(spaceId)).purge;
    for (const command of ['retry', 'cancel']) {
      const refused = await cli(['jobs', command, spaceId, '--json'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
      expect(refused.code).toBe(4);
      expect(JSON.parse(refused.stderr).error.message).toMatch(/^temporal: /);
    }
    expect((await rowOf(spaceId)).purge).toEqual(before);
  }, 60000);
});
