/**
 * Runs the space-purge job through each of its paths, for record.ts; record with `PURGE_BATCH_SIZE=2`, so that the
 * `continued` case purges in several batches and continues as new between them.
 */
import pino from 'pino';
import { jobWorkflowId } from '../../../domain/jobs/contracts';
import { JobTicket } from '../../../domain/jobs/job-kind';
import { applyJobTicket } from '../../../domain/jobs/job-start';
import { lockSpace, restoreSpace, softDeleteSpace } from '../../../domain/spaces/deletion';
import { spacePurgeJob } from '../../../domain/spaces/purge-job';
import type { Space } from '../../../entities/Space';
import { inTransaction } from '../../../platform/db/transactions';
import { unique } from '../../factories';
import { grant, insertSpace } from '../../support/content';
import { heldBack } from '../../support/held-back';
import { continuedCases, continuingGateway, type Recorder } from './recorder';

export const recordSpacePurge: Recorder = async ({ ds, config, temporal, org, admin }) => {
  const logger = pino({ level: 'silent' });
  const dispatch = (ticket: JobTicket<Space>) => applyJobTicket(temporal, ds.manager, ticket, logger);
  const remove = (spaceId: string) =>
    inTransaction(heldBack(ds), async (db) => softDeleteSpace(db, await lockSpace(db, spaceId)));
  const restore = (spaceId: string) =>
    inTransaction(heldBack(ds), async (db) =>
      restoreSpace(db, await lockSpace(db, spaceId), config.spaceRetentionSeconds),
    );
  const client = await temporal.getClient();
  const settle = async (workflowId: string) => {
    await client.workflow
      .getHandle(workflowId)
      .result()
      .catch(() => undefined);
    return workflowId;
  };

  const purged = await insertSpace(ds, org);
  await dispatch(await remove(purged.id));

  const cancelled = await insertSpace(ds, org);
  await dispatch(await remove(cancelled.id));
  await dispatch(await restore(cancelled.id));

  const superseded = await insertSpace(ds, org);
  await dispatch(await remove(superseded.id));
  await restore(superseded.id); // its cancel is lost: the run finds its generation moved on

  // The database refuses the purge's deletes for this space until the retries run out.
  const failed = await insertSpace(ds, org);
  await grant(ds, org.id, 'space', failed.id, admin.user.id, 'read');
  const trigger = unique('refuse_purge_');
  await ds.query(
    `CREATE TRIGGER ${trigger} BEFORE DELETE ON content_grants FOR EACH ROW BEGIN IF OLD.targetId = '${failed.id}' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'; END IF; END`,
  );
  try {
    await dispatch(await remove(failed.id));
    await settle(jobWorkflowId(spacePurgeJob, failed.id, 1));
  } finally {
    await ds.query(`DROP TRIGGER ${trigger}`);
  }

  const bounded = continuingGateway(config);
  const continued = await insertSpace(ds, org);
  for (let i = 0; i < 6; i++)
    await grant(ds, org.id, 'space', continued.id, `${admin.user.id.slice(0, 20)}${i}`, 'read');
  const continuedTicket = await remove(continued.id);
  await applyJobTicket(bounded, ds.manager, continuedTicket, logger);
  await bounded.close();

  return [
    ...(await continuedCases(temporal, jobWorkflowId(spacePurgeJob, continued.id, 1), continuedTicket.row.purge.runId)),
    { name: 'purged', workflowId: await settle(jobWorkflowId(spacePurgeJob, purged.id, 1)) },
    { name: 'cancelled', workflowId: await settle(jobWorkflowId(spacePurgeJob, cancelled.id, 1)) },
    { name: 'superseded', workflowId: await settle(jobWorkflowId(spacePurgeJob, superseded.id, 1)) },
    { name: 'failed', workflowId: jobWorkflowId(spacePurgeJob, failed.id, 1) },
  ];
};
