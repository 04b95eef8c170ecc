/** Integration events as GitBook's IntegrationEvent, and an event's detail with its trace (IntegrationEventTrace). */
import { z } from 'zod';
import { INTEGRATION_EVENT_STATUSES, integrationDispatchJob } from '../../domain/integrations/dispatch-job';
import type { IntegrationEvent } from '../../entities/IntegrationEvent';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, timestamp } from './common';

export const integrationEventSchema = z
  .object({
    id: z.string(),
    integrationId: z.string(),
    installationId: z.string().optional(),
    createdAt: timestamp,
    payload: z.record(z.unknown()).openapi({
      description:
        'the Event as delivered: eventId, type, installationId, spaceId or siteId, and the fields of its type',
    }),
    status: z.enum(INTEGRATION_EVENT_STATUSES).openapi({
      description:
        '`success` once a delivery was answered 2xx, `failed` otherwise; extension: `pending` while its delivery goes on',
    }),
  })
  .openapi('IntegrationEvent');

const logSchema = z
  .object({
    message: z.string(),
    timestamp,
    level: z.enum(['debug', 'info', 'warn', 'error']),
  })
  .openapi('IntegrationEventLog');

export const integrationEventDetailSchema = z
  .object({
    event: integrationEventSchema,
    trace: z
      .object({
        logs: z
          .array(logSchema)
          .openapi({ description: 'one line per delivery attempt: the URL, the status or error, the duration' }),
      })
      .openapi('IntegrationEventTrace'),
  })
  .openapi('IntegrationEventDetail');

export function presentIntegrationEvent(event: IntegrationEvent): Presented<typeof integrationEventSchema> {
  return {
    id: event.id,
    integrationId: event.integrationId,
    installationId: event.installationId,
    createdAt: iso(event.createdAt),
    payload: event.payload,
    status: integrationDispatchJob.publicStatus(event.dispatch),
  };
}

export function presentIntegrationEventDetail(event: IntegrationEvent): Presented<typeof integrationEventDetailSchema> {
  return { event: presentIntegrationEvent(event), trace: { logs: event.trace } };
}
