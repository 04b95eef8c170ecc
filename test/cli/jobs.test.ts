/**
 * `cli jobs list` and `cli jobs watch` against the rows (the compiled CLI, as operators run it).
 * The job rows move through the domain's own transitions; no worker is needed to watch them.
 */
import { execFile, spawn } from 'child_process';
import * as path from 'path';
import { promisify } from 'util';
import { inTransaction } from '../../domain/db';
import { finishJob, jobRef, markJobStarted, reportJobProgress } from '../../domain/processes/job-kind';
import { lockSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { useServer } from '../support/server';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
const server = useServer();

const cli = (...args: string[]) => promisify(execFile)('node', [CLI, ...args], { env: process.env });

function watch(resourceId: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [CLI, 'jobs', 'watch', resourceId, '--json'], { env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function deletedSpace(orgId: { id: string } & Parameters<typeof insertSpace>[1]) {
  const space = await insertSpace(server.ds, orgId);
  const ticket = await inTransaction(server.ds, async (db) => softDeleteSpace(db, await lockSpace(db, space.id)));
  return jobRef(spacePurgeJob, ticket.row);
}

describe('cli jobs', () => {
  it('lists the jobs of an organization, by kind and state', async () => {
    const { org } = await createOrg(server.ds);
    const pending = await deletedSpace(org);
    const failed = await deletedSpace(org);
    await inTransaction(server.ds, (db) =>
      finishJob(db, spacePurgeJob, failed, { code: 'JOB_FAILED', messages: [{ message: 'boom' }] }),
    );

    const all = JSON.parse((await cli('jobs', 'list', '--org', org.id, '--json')).stdout).jobs;
    expect(all.map((j: { resourceId: string }) => j.resourceId).sort()).toEqual(
      [pending.resourceId, failed.resourceId].sort(),
    );
    expect(all[0]).toMatchObject({
      kind: 'space-purge',
      organizationId: org.id,
      workflowId: `space-purge/${all[0].resourceId}/1`,
    });

    const onlyFailed = JSON.parse(
      (await cli('jobs', 'list', '--org', org.id, '--kind', 'space-purge', '--state', 'failed', '--json')).stdout,
    ).jobs;
    expect(onlyFailed).toEqual([
      expect.objectContaining({ resourceId: failed.resourceId, status: 'failed', errorCode: 'JOB_FAILED' }),
    ]);
    await expect(cli('jobs', 'list', '--org', 'no-such-org')).rejects.toMatchObject({
      code: 3,
      stderr: expect.stringContaining('--org: organization no-such-org not found'),
    });
    await expect(cli('jobs', 'list', '--state', 'sleeping')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("option '--state <state>' argument 'sleeping' is invalid"),
    });
  });

  it('watch draws the progress until the job succeeds (exit 0) or fails (exit 5); no job is exit 3', async () => {
    const { org } = await createOrg(server.ds);
    const ok = await deletedSpace(org);
    const watching = watch(ok.resourceId);
    await inTransaction(server.ds, (db) => markJobStarted(db, spacePurgeJob, ok));
    await inTransaction(server.ds, (db) => reportJobProgress(db, spacePurgeJob, ok, 1, 2));
    await new Promise((r) => setTimeout(r, 700));
    await inTransaction(server.ds, (db) => finishJob(db, spacePurgeJob, ok, null));
    const done = await watching;
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ resourceId: ok.resourceId, status: 'succeeded' });
    expect(done.stderr).toMatch(/100%/);

    const bad = await deletedSpace(org);
    const watchingBad = watch(bad.resourceId);
    await inTransaction(server.ds, (db) =>
      finishJob(db, spacePurgeJob, bad, { code: 'JOB_FAILED', messages: [{ message: 'the database refused' }] }),
    );
    const failed = await watchingBad;
    expect(failed.code).toBe(5);
    expect(failed.stderr).toMatch(/JOB_FAILED: the database refused/);

    expect((await watch('no-such-resource')).code).toBe(3);
  }, 30000);
});
