/**
 * `cli jobs list` and `cli jobs watch` against the rows (the compiled CLI, as operators run it).
 * The job rows move through the domain's own transitions; no worker is needed to watch them.
 */
import { execFile, execFileSync, spawn } from 'child_process';
import * as path from 'path';
import { promisify } from 'util';
import { newId } from '../../domain/ids';
import { jobRef } from '../../domain/jobs/job-kind';
import { markJobStarted, recordJobEnd, reportJobProgress } from '../../domain/jobs/job-lifecycle';
import { pdfExportJob } from '../../domain/pdf/export-job';
import { lockSpace, softDeleteSpace } from '../../domain/spaces/deletion';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import { ImportRun } from '../../entities/ImportRun';
import { idleJobState } from '../../entities/JobState';
import { PdfExport } from '../../entities/PdfExport';
import { Space } from '../../entities/Space';
import { inTransaction } from '../../platform/db/transactions';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { heldBack } from '../support/held-back';
import { useServer } from '../support/server';

const CLI = path.join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
const server = useServer();

const cli = (...args: string[]) => promisify(execFile)('node', [CLI, ...args], { env: process.env });

interface Watcher {
  /** what it wrote to stderr so far */
  stderr(): string;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function startWatch(
  resourceId: string,
  options: { json?: boolean; env?: Record<string, string> } = { json: true },
): Watcher {
  const args = [CLI, 'jobs', 'watch', resourceId, ...(options.json ? ['--json'] : [])];
  const child = spawn('node', args, { env: { ...process.env, ...options.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return {
    stderr: () => stderr,
    done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))),
  };
}

const watch = (resourceId: string) => startWatch(resourceId).done;

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

async function deletedSpace(orgId: { id: string } & Parameters<typeof insertSpace>[1]) {
  const space = await insertSpace(server.ds, orgId);
  const ticket = await inTransaction(heldBack(server.ds), async (db) =>
    softDeleteSpace(db, await lockSpace(db, space.id)),
  );
  return jobRef(spacePurgeJob, ticket.row);
}

describe('cli jobs', () => {
  it('lists the jobs of an organization, by kind and state', async () => {
    const { org } = await createOrg(server.ds);
    const pending = await deletedSpace(org);
    const failed = await deletedSpace(org);
    await inTransaction(heldBack(server.ds), (db) =>
      recordJobEnd(db, spacePurgeJob, failed, { code: 'JOB_FAILED', messages: [{ message: 'boom' }] }),
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

  it('watch ends with the job: exit 5 when it failed, 3 when no job was asked for; --json draws no bar', async () => {
    const { org } = await createOrg(server.ds);
    const bad = await deletedSpace(org);
    const watchingBad = watch(bad.resourceId);
    await inTransaction(heldBack(server.ds), (db) =>
      recordJobEnd(db, spacePurgeJob, bad, { code: 'JOB_FAILED', messages: [{ message: 'the database refused' }] }),
    );
    const failed = await watchingBad;
    expect(failed.code).toBe(5);
    // the error, and nothing drawn before it
    expect(failed.stderr.split('\n')).toEqual([
      JSON.stringify({
        error: {
          exit: 5,
          code: 'jobFailed',
          message: `job space-purge/${bad.resourceId}/1 failed: JOB_FAILED: the database refused`,
        },
      }),
      '',
    ]);
    expect(failed.stdout).toBe('');

    expect((await watch('no-such-resource')).code).toBe(3);
  }, 30000);

  it('finds jobs by what they are about: a change request names its PDF export, a space its imports', async () => {
    const { org, admin } = await createOrg(server.ds);
    const space = await insertSpace(server.ds, org);
    const changeRequestId = newId();
    const requested = (at: number) => ({ ...idleJobState(), requestedAt: new Date(at), generation: 1 });
    const exportId = newId();
    await server.ds.manager.insert(PdfExport, {
      id: exportId,
      organizationId: org.id,
      spaceId: space.id,
      changeRequestId,
      revisionId: newId(),
      createdAt: new Date(),
      lastRequestedAt: new Date(),
      render: requested(Date.now()),
    });
    const imports = [newId(), newId()];
    for (const [i, id] of imports.entries())
      await server.ds.manager.insert(ImportRun, {
        id,
        organizationId: org.id,
        spaceId: space.id,
        source: 'website',
        url: 'https://example.com/',
        createdById: admin.user.id,
        createdAt: new Date(),
        updatedAt: new Date(),
        process: requested(Date.now() + i),
      });

    // one job about the change request: watched through it
    const watcher = startWatch(changeRequestId);
    await new Promise((r) => setTimeout(r, 1000));
    await inTransaction(heldBack(server.ds), (db) =>
      recordJobEnd(db, pdfExportJob, jobRef(pdfExportJob, { id: exportId, render: requested(0) } as PdfExport), null),
    );
    const done = await watcher.done;
    expect([done.code, JSON.parse(done.stdout)]).toEqual([0, expect.objectContaining({ resourceId: exportId })]);

    // two imports into the space and its change request's PDF export: listed, newest first, and watch asks which
    const about = JSON.parse((await cli('jobs', 'list', '--about', space.id, '--json')).stdout).jobs;
    expect(about.map((j: { kind: string; resourceId: string }) => [j.kind, j.resourceId])).toEqual([
      ['content-import', imports[1]],
      ['content-import', imports[0]],
      ['pdf-export', exportId],
    ]);
    const ambiguous = await watch(space.id);
    expect(ambiguous.code).toBe(7);
    expect(JSON.parse(ambiguous.stderr).error.message).toMatch(
      new RegExp(
        `^3 jobs are about ${space.id}; watch one by its resource id[^]*${imports[1]}[^]*${imports[0]}[^]*${exportId}`,
      ),
    );
  }, 30000);

  it('off a terminal, watch prints a line only when something changes, with a purge’s due time', async () => {
    const { org } = await createOrg(server.ds);
    const job = await deletedSpace(org);
    const { deletedAt } = await server.ds.manager.findOneByOrFail(Space, { id: job.resourceId });
    const due = new Date(deletedAt!.getTime() + 3600_000).toISOString();
    const watcher = startWatch(job.resourceId, { env: { SPACE_RETENTION_SECONDS: '3600' } });
    const pause = () => new Promise((r) => setTimeout(r, 1500)); // three polls of the job: nothing new to say
    await until(() => watcher.stderr().includes('pending'), 'the first line');
    await pause();
    await inTransaction(server.ds, (db) => markJobStarted(db, spacePurgeJob, job));
    await pause();
    // a purge counts no progress (its kind's unit is none), so a report shows nothing new
    await inTransaction(server.ds, (db) => reportJobProgress(db, spacePurgeJob, job, 1, 2));
    await pause();
    await inTransaction(heldBack(server.ds), (db) => recordJobEnd(db, spacePurgeJob, job, null));
    const done = await watcher.done;
    expect(done.code).toBe(0);
    expect(done.stderr.split('\n')).toEqual([
      `space-purge ${job.resourceId} pending, due ${due}`,
      `space-purge ${job.resourceId} running, due ${due}`,
      `space-purge ${job.resourceId} succeeded`,
      '',
    ]);
    expect(done.stdout).toBe(`space-purge/${job.resourceId}/1 succeeded\n`);
  }, 30000);

  it.each([
    ['Ctrl-C', 130],
    ['SIGTERM', 143],
  ])(
    'on a terminal, watch gives the terminal its line wrap and cursor back on %s',
    async (how, exit) => {
      const { org } = await createOrg(server.ds);
      const job = await deletedSpace(org);
      // script(1) runs the CLI on a pseudo-terminal, as a person's shell does, and copies what it draws to stdout
      const terminal = spawn(
        'script',
        ['-q', '-e', '-c', `exec node ${CLI} jobs watch ${job.resourceId}`, '/dev/null'],
        {
          env: process.env,
        },
      );
      let output = '';
      terminal.stdout.on('data', (d) => (output += d));
      const closed = new Promise<number | null>((resolve) => terminal.on('close', resolve));
      for (let i = 0; i < 100 && !output.includes('pending'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(output).toContain('\x1b[?7l'); // the bar turned line wrap off
      if (how === 'Ctrl-C') terminal.stdin.write('\x03');
      else
        process.kill(
          Number(execFileSync('pgrep', ['-P', String(terminal.pid)], { encoding: 'utf8' }).trim()),
          'SIGTERM',
        );
      expect(await closed).toBe(exit);
      const after = output.slice(output.lastIndexOf('pending'));
      expect(after).toContain('\x1b[?7h'); // line wrap on again
      expect(after).toContain('\x1b[?25h'); // the cursor shown again
    },
    30000,
  );
});
