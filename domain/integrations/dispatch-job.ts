/**
 * The integration-dispatch job kind: each deliverable event asks for one run on its own row as it is
 * written (events.ts), and the `integrationDispatch` workflow delivers it under
 * `integration-dispatch/<eventId>`. Its retention removes events whose delivery ended long ago, and
 * the tombstones of unpublished integrations once their last deliveries ended.
 */
import { In, IsNull, LessThan, Not } from 'typeorm';
import { Integration } from '../../entities/Integration';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';
import { JOB_KIND_NAMES } from '../jobs/contracts';
import { defineJobKind, jobStatus } from '../jobs/job-kind';

/** GitBook's IntegrationEvent statuses (`pending` is an extension: its delivery goes on). */
export const INTEGRATION_EVENT_STATUSES = ['success', 'failed', 'pending'] as const;

import type { BlobStore } from '../../platform/storage/blob-store';
import { removeIntegrationTokens } from './tokens';

/** Events whose delivery ended before the retention, then tombstones with no delivery left, with their blobs and tokens. */
async function expireIntegrationEvents(db: Db, config: Config, now: Date, blobs: BlobStore): Promise<number> {
  const cutoff = new Date(now.getTime() - config.integrationDispatch.retentionSeconds * 1000);
  const expired = await db.delete(IntegrationEvent, { status: In(['success', 'failed']), createdAt: LessThan(cutoff) });
  let removed = expired.affected ?? 0;
  for (const tombstone of await db.find(Integration, { where: { deletedAt: Not(IsNull()) }, take: 100 })) {
    if (await db.existsBy(IntegrationEvent, { integrationId: tombstone.id, status: 'pending' })) continue;
    removed += (await db.delete(IntegrationEvent, { integrationId: tombstone.id })).affected ?? 0;
    for (const key of [tombstone.scriptKey, tombstone.iconKey, ...tombstone.previewImageKeys])
      if (key) await blobs.delete(key);
    await removeIntegrationTokens(db, tombstone.id);
    await db.delete(Integration, { id: tombstone.id });
  }
  return removed;
}

export const integrationDispatchJob = defineJobKind({
  name: JOB_KIND_NAMES.integrationDispatch,
  workflow: 'integrationDispatch',
  entity: IntegrationEvent,
  state: 'dispatch',
  input: (event: IntegrationEvent) => ({ eventId: event.id, organizationId: event.organizationId }),
  spaceId: (event: IntegrationEvent) => event.spaceId,
  // the installation whose events were dispatched
  askedAbout: ['installationId'],
  // an event asks for one run, when it is written (integration-dispatch/<eventId>); the repair pass's new
  // generation of a lost or failed delivery reuses the id once the earlier run closed
  policy: 'single-run',
  // an event no run was asked for (no tunnel took it) failed as it was written: its trace says why
  // attempts made, with no total: a retry happens only after a failure, so a bar to fill would mislead
  progressUnit: 'attempts',
  publicStatus: (state): (typeof INTEGRATION_EVENT_STATUSES)[number] => {
    const status = jobStatus(state);
    return status === 'succeeded' ? 'success' : status === 'failed' || status === 'idle' ? 'failed' : 'pending';
  },
  onLostRun: 'request-again',
  // a delivery that failed is delivered again; one that succeeded stays delivered, and its new run only
  // records that (a run lost after its delivery was recorded)
  beforeRunAgain: async (db, event: IntegrationEvent) => {
    if (event.status !== 'failed') return;
    await db.update(IntegrationEvent, { id: event.id }, { status: 'pending' });
    event.status = 'pending';
  },
  // for a database outage or a lost worker: the delivery's own attempts are the workflow's
  retryBudgetMs: 10 * 60 * 1000,
  retention: {
    describe:
      'events whose delivery ended before INTEGRATION_EVENT_RETENTION_SECONDS; unpublished integrations (their events and blobs) once no delivery is pending',
    expire: expireIntegrationEvents,
  },
});
