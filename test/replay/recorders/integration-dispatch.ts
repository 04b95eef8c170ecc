/**
 * Runs the integration-dispatch job through its paths, for record.ts: delivered after a 503 (a retry
 * after a back-off), rejected by a 406, failed once every attempt answered 5xx, and cancelled while its first
 * POST is under way (an operator's `cli jobs cancel`: the event is abandoned, the row records CANCELLED). The tunnel is a
 * local server, so record with loopback allowed and short back-offs:
 * `FETCH_ALLOW_LOOPBACK=true INTEGRATION_DISPATCH_BACKOFF_MS=50 npm run record-histories -- integration-dispatch v1`.
 */
import pino from 'pino';
import { integrationDispatchJob } from '../../../domain/integrations/dispatch-job';
import { recordIntegrationEvent } from '../../../domain/integrations/events';
import { jobWorkflowId } from '../../../domain/jobs/contracts';
import { Integration } from '../../../entities/Integration';
import { inTransaction } from '../../../platform/db/transactions';
import { insertInstallation, insertIntegration } from '../../support/integration-rows';
import { Tunnel } from '../../support/integration-tunnel';
import type { Recorder } from './recorder';

export const recordIntegrationDispatch: Recorder = async ({ ds, config, temporal, org }) => {
  const logger = pino({ level: 'silent' });
  if (config.fetch.allowLoopback !== true)
    throw new Error('record integration-dispatch with FETCH_ALLOW_LOOPBACK=true (its tunnel is a local server)');
  const client = await temporal.getClient();
  const tunnel = await new Tunnel().start();
  // the cancelled case: the tunnel cancels the run on its first POST and answers only once the cancel landed
  let cancelling: { workflowId: string | null } | null = null;
  tunnel.onEvent = async () => {
    const cancel = cancelling;
    if (!cancel) return;
    cancelling = null;
    while (!cancel.workflowId) await new Promise((r) => setTimeout(r, 20));
    await client.workflow.getHandle(cancel.workflowId).cancel();
    await new Promise((r) => setTimeout(r, 2000));
  };
  try {
    const integration = await insertIntegration(ds, org.id, ['space:content:read'], { devTunnelUrl: tunnel.url });
    const installation = await insertInstallation(ds, integration, org.id);
    const deliver = async (name: string, statuses: number[], cancel = false) => {
      tunnel.statuses = statuses;
      const cancelled: { workflowId: string | null } = { workflowId: null };
      if (cancel) cancelling = cancelled;
      // written as a request writes it: its start follows the commit
      const event = await inTransaction({ ds, config, temporal, logger }, async (db) =>
        recordIntegrationEvent(db, {
          integration: await db.findOneByOrFail(Integration, { id: integration.id }),
          installation,
          type: 'installation_setup',
          fields: { status: 'active' },
        }),
      );
      const workflowId = jobWorkflowId(integrationDispatchJob, event.id, 1);
      cancelled.workflowId = workflowId;
      // started after the commit; wait for it to exist, then to close
      for (
        let i = 0;
        i < 100 &&
        !(await client.workflow
          .getHandle(workflowId)
          .describe()
          .catch(() => null));
        i++
      )
        await new Promise((r) => setTimeout(r, 50));
      await client.workflow
        .getHandle(workflowId)
        .result()
        .catch(() => undefined);
      return { name, workflowId };
    };
    return [
      await deliver('delivered', [503]),
      await deliver('rejected', [406]),
      await deliver('exhausted', Array(config.integrationDispatch.maxAttempts).fill(500)),
      await deliver('cancelled', [], true),
    ];
  } finally {
    await tunnel.close();
  }
};
