/**
 * What an operator does to a job by its resource id (`cli jobs retry`, `cli jobs cancel`). Temporal is
 * reached before anything is written, so when it cannot be, nothing changes.
 */

import { type Db, inTransaction, type WorkSource } from '../../platform/db/transactions';

import { conflict, notFound } from '../errors';
import { jobWorkflowId } from './contracts';
import { isJobActive, JobKind, JobRow, jobState, jobStatus } from './job-kind';
import { cancelJob, lockJobRow, requestJob } from './job-lifecycle';
import { findJobRow } from './job-queries';
import { repairRun } from './job-repair';
import { cancelSupersededRun, startJob } from './job-start';

interface Located<R extends JobRow = JobRow> {
  kind: JobKind<R>;
  row: R;
}

/** The row a job works on, of whichever kind; 404 when none, or when no job was ever asked for on it. */
async function locate(db: Db, resourceId: string): Promise<Located> {
  const found = await findJobRow(db, resourceId);
  if (!found || !jobState(found.kind, found.row).requestedAt) throw notFound(`job on ${resourceId}`);
  return found;
}

const workflowIdOf = ({ kind, row }: Located) => jobWorkflowId(kind, row.id, jobState(kind, row).generation);

/**
 * A new generation of a failed job, or of one whose run was lost (the repair pass's rule first: a kind
 * that asks again, or a coalesced request, starts its run there). A start that was lost is started. A
 * job whose run is alive, or that succeeded, is a 409. Returns the workflow id of the run now asked for.
 */
export async function retryJob(work: WorkSource, resourceId: string): Promise<string> {
  const { temporal, ds } = work;
  await temporal.getClient();
  const found = await locate(ds.manager, resourceId);
  const state = jobState(found.kind, found.row);
  if (isJobActive(state)) {
    if (state.runId === null) {
      await startJob(temporal, ds.manager, { kind: found.kind, row: found.row, start: true, superseded: null });
      return workflowIdOf(found);
    }
    const repair = await repairRun(work, found.kind, found.row);
    if (!repair.repaired)
      throw conflict(`job ${workflowIdOf(found)} is ${repair.status.toLowerCase()}: cancel it first to run it again`);
    if (repair.restarted) return workflowIdOf(await locate(ds.manager, resourceId));
  }
  const ticket = await inTransaction(work, async (db) => {
    const row = await lockJobRow(db, found.kind, resourceId);
    const status = row ? jobStatus(jobState(found.kind, row)) : 'gone';
    if (!row || status !== 'failed') throw conflict(`job on ${resourceId} is ${status}: only a failed job is retried`);
    return requestJob(db, found.kind, row);
  });
  // the commit's own work started it already; this surfaces an unreachable Temporal to the operator
  await startJob(temporal, ds.manager, ticket);
  return workflowIdOf(ticket);
}

/** Ends an active job as CANCELLED and cancels its run; a job that is not active is a 409. */
export async function cancelJobRun(work: WorkSource, resourceId: string): Promise<string> {
  const { temporal, ds } = work;
  await temporal.getClient();
  const found = await locate(ds.manager, resourceId);
  const ticket = await inTransaction(work, async (db) => {
    const row = await lockJobRow(db, found.kind, resourceId);
    const state = row && jobState(found.kind, row);
    if (!row || !state || !isJobActive(state))
      throw conflict(
        `job on ${resourceId} is ${state ? jobStatus(state) : 'gone'}: only a pending or running job is cancelled`,
      );
    return cancelJob(db, found.kind, row, 'cancelled by an operator (cli jobs cancel)');
  });
  // as for a retry: the commit's own work cancelled it, and this surfaces a failure to the operator
  await cancelSupersededRun(temporal, ticket);
  return jobWorkflowId(found.kind, resourceId, ticket.superseded ?? 0);
}
