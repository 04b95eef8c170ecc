/**
 * Integration events: one row per event and installation, written in the transaction
 * of the change that causes it. An event whose integration is in development mode for the event's
 * organization is `pending` and asks for its `integration-dispatch` job, started after the commit
 * (platform/db/after-commit.ts; the reconciler starts what a crash lost). Any other event is `failed` at once,
 * with a trace line saying no endpoint is configured: running published scripts is a later step.
 */

import type { Integration } from '../../entities/Integration';
import { IntegrationEvent, IntegrationEventLog } from '../../entities/IntegrationEvent';
import type { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { idleJobState } from '../../entities/JobState';
import { assertWorkTx, type WorkTx } from '../../platform/db/after-commit';
import { type Db, insertKeepingValues } from '../../platform/db/transactions';
import { newId } from '../ids';
import { applyJobTicket } from '../jobs/job-start';
import { integrationDispatchJob } from './dispatch-job';
import type { IntegrationEventType } from './event-payloads';

export interface NewIntegrationEvent {
  integration: Integration;
  installation: IntegrationInstallation;
  type: IntegrationEventType;
  /** The fields of the type beyond eventId, type, installationId, spaceId and siteId (event-payloads.ts). */
  fields: Record<string, unknown>;
  spaceId?: string;
  siteId?: string;
}

export function traceLine(level: IntegrationEventLog['level'], message: string, at: Date): IntegrationEventLog {
  return { level, message, timestamp: at.toISOString() };
}

/**
 * Where the integration receives the events of `organizationId`: its development tunnel when dev
 * mode is on and either covers every organization (`all`) or this is the owner's; otherwise none.
 */
export function eventEndpoint(integration: Integration, organizationId: string): string | null {
  if (!integration.devTunnelUrl) return null;
  return integration.devAll || organizationId === integration.ownerOrganizationId ? integration.devTunnelUrl : null;
}

/** Writes the event in the caller's transaction; a deliverable one is dispatched once it commits. */
export async function recordIntegrationEvent(db: WorkTx, input: NewIntegrationEvent): Promise<IntegrationEvent> {
  assertWorkTx(db);
  const { integration, installation } = input;
  const now = new Date();
  const id = newId();
  const endpointUrl = eventEndpoint(integration, installation.organizationId);
  const event = Object.assign(new IntegrationEvent(), {
    id,
    integrationId: integration.id,
    installationId: installation.id,
    organizationId: installation.organizationId,
    spaceId: input.spaceId ?? null,
    siteId: input.siteId ?? null,
    type: input.type,
    payload: {
      eventId: id,
      type: input.type,
      installationId: installation.id,
      ...(input.spaceId ? { spaceId: input.spaceId } : {}),
      ...(input.siteId ? { siteId: input.siteId } : {}),
      ...input.fields,
    },
    status: endpointUrl ? 'pending' : 'failed',
    endpointUrl,
    signingSecret: installation.signingSecret,
    trace: endpointUrl
      ? []
      : [
          traceLine(
            'warn',
            'no endpoint configured: the integration is not in development mode for this organization, and published scripts are not run',
            now,
          ),
        ],
    createdAt: now,
    // a deliverable event asks for its one run (generation 1) as it is written
    dispatch: endpointUrl ? Object.assign(idleJobState(), { generation: 1, requestedAt: now }) : idleJobState(),
  });
  await insertKeepingValues(db, IntegrationEvent, event);
  const { temporal, logger } = db.services;
  if (endpointUrl)
    db.afterCommit(() =>
      applyJobTicket(
        temporal,
        db.connection.manager,
        { kind: integrationDispatchJob, row: event, start: true, superseded: null },
        logger,
      ),
    );
  return event;
}

/** The integration's events, for the newest-first list. */
export function integrationEventsQuery(db: Db, integrationId: string) {
  return db.createQueryBuilder(IntegrationEvent, 'e').where('e.integrationId = :integrationId', { integrationId });
}
