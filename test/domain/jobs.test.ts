/** The row transitions every job kind shares, on real rows (a space and its purge job). */
import { ApplicationFailure } from '@temporalio/common';
import { toFailure } from '../../activities/job-activity';
import { JobError } from '../../domain/jobs/job-error';
import { defineJobKind, jobRef, jobStatus } from '../../domain/jobs/job-kind';
import { lockCurrentJob, lockJobRow, recordJobEnd, requestJob, withdrawJob } from '../../domain/jobs/job-lifecycle';
import { spacePurgeJob } from '../../domain/spaces/purge-job';
import type { Space } from '../../entities/Space';
import { inTransaction } from '../../platform/db/transactions';
import { createOrg } from '../factories';
import { insertSpace } from '../support/content';
import { heldBack } from '../support/held-back';
import { useServer } from '../support/server';

const server = useServer();

async function freshSpace(): Promise<Space> {
  const { org } = await createOrg(server.ds);
  return insertSpace(server.ds, org);
}

const request = (kind: typeof spacePurgeJob, id: string) =>
  inTransaction(heldBack(server.ds), async (db) => requestJob(db, kind, (await lockJobRow(db, kind, id))!));

describe('job rows', () => {
  it('supersede: each request is a new generation and names the run it superseded', async () => {
    const space = await freshSpace();
    const first = await request(spacePurgeJob, space.id);
    expect(first).toMatchObject({ start: true, superseded: null });
    expect(jobStatus(first.row.purge)).toBe('pending');
    const second = await request(spacePurgeJob, space.id);
    expect(second).toMatchObject({ start: true, superseded: 1 });
    expect(second.row.purge.generation).toBe(2);
    // a step of the superseded run writes nothing
    await expect(
      inTransaction(heldBack(server.ds), (db) =>
        recordJobEnd(db, spacePurgeJob, jobRef(spacePurgeJob, first.row), null),
      ),
    ).rejects.toMatchObject({ code: 'SUPERSEDED' });
    const withdrawn = await inTransaction(heldBack(server.ds), async (db) =>
      withdrawJob(db, spacePurgeJob, (await lockJobRow(db, spacePurgeJob, space.id))!),
    );
    expect(withdrawn).toMatchObject({ start: false, superseded: 2 });
    expect(jobStatus(withdrawn.row.purge)).toBe('idle');
  });

  it('coalesce: a request during a run asks for exactly one more run after it', async () => {
    // a purge's success removes its space; this kind's keeps the row for the run that follows
    const coalescing = defineJobKind({ ...spacePurgeJob, policy: 'coalesce', removesRow: undefined });
    const space = await freshSpace();
    const first = await request(coalescing, space.id);
    const during = await request(coalescing, space.id);
    const again = await request(coalescing, space.id);
    expect([during.start, again.start]).toEqual([false, false]);
    expect(again.row.purge).toMatchObject({ generation: 1, rerunRequested: true });
    const next = await inTransaction(heldBack(server.ds), (db) =>
      recordJobEnd(db, coalescing, jobRef(coalescing, first.row), null),
    );
    expect(next).toMatchObject({ start: true, superseded: null });
    expect(next!.row.purge).toMatchObject({ generation: 2, rerunRequested: false, finishedAt: null });
    const last = await inTransaction(heldBack(server.ds), (db) =>
      recordJobEnd(db, coalescing, jobRef(coalescing, next!.row), {
        code: 'FETCH_ERROR',
        messages: [{ message: 'status 500' }],
      }),
    );
    expect(last).toBeNull();
    const row = await inTransaction(server.ds, (db) => lockCurrentJob(db, coalescing, jobRef(coalescing, next!.row)));
    expect(jobStatus(row.purge)).toBe('failed');
    expect(row.purge).toMatchObject({ errorCode: 'FETCH_ERROR', errorMessages: [{ message: 'status 500' }] });
  });

  it('single-run: a request during the run finds it; one after it ended is the next generation', async () => {
    // a purge's success removes its space; this kind's keeps the row
    const once = defineJobKind({ ...spacePurgeJob, policy: 'single-run', removesRow: undefined });
    const space = await freshSpace();
    const first = await request(once, space.id);
    const during = await request(once, space.id);
    // the same generation, nothing superseded (it starts only to find the run, whose start is not recorded here)
    expect(during).toMatchObject({ start: true, superseded: null });
    expect(during.row.purge).toMatchObject({ generation: 1, requestedAt: first.row.purge.requestedAt });
    await inTransaction(heldBack(server.ds), (db) =>
      recordJobEnd(db, once, jobRef(once, first.row), { code: 'RUN_LOST', messages: [{ message: 'terminated' }] }),
    );
    const again = await request(once, space.id);
    expect(again).toMatchObject({ start: true, superseded: null });
    expect(again.row.purge).toMatchObject({ generation: 2, errorCode: null, finishedAt: null });
  });

  it('a JobError reaches Temporal as a non-retryable failure of its code, with its messages', () => {
    const failure = toFailure(
      new JobError('PARSE_ERROR', 'invalid document', [{ message: 'paths: required', code: 'required' }]),
    );
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type: 'PARSE_ERROR',
      nonRetryable: true,
      details: [[{ message: 'paths: required', code: 'required' }]],
    });
    const other = new Error('connection reset');
    expect(toFailure(other)).toBe(other);
  });
});
