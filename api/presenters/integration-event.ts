/** Integration events as GitBook's IntegrationEvent, and an event's detail with its trace (IntegrationEventTrace). */
import { z } from 'zod';
import { INTEGRATION_EVENT_STATUSES, integrationDispatchJob } from '../../domain/integrations/dispatch-job';
import type { IntegrationEvent } from '../../entities/IntegrationEvent';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, timestamp } from './common';

export const integrationEventSchema = z
  .object({
    id: z.string().openapi({ description: 'id of the event (also the payload `eventId`)' }),
    integrationId: z.string().openapi({ description: 'id of the integration it is delivered to' }),
    installationId: z
      .string()
      .optional()
      .openapi({ description: 'id of the installation it concerns; absent when it concerns none' }),
    createdAt: timestamp.openapi({ description: 'when the event was recorded (ISO 8601 date-time)' }),
    payload: z.record(z.unknown()).openapi({
      description:
        'the Event as delivered: eventId, type, installationId, spaceId or siteId, and the fields of its type',
    }),
    status: z.enum(INTEGRATION_EVENT_STATUSES).openapi({
      description:
        '`success` once a delivery was answered 2xx, `failed` otherwise; extension: `pending` while its delivery goes on',
    }),
  })
  .openapi('IntegrationEvent', {
    description:
      'One event sent to an integration (an installation set up or removed, …), with the state of its delivery.',
  });

const logSchema = z
  .object({
    message: z.string().openapi({ description: 'what happened, in one line' }),
    timestamp: timestamp.openapi({ description: 'when it happened (ISO 8601 date-time)' }),
    level: z.enum(['debug', 'info', 'warn', 'error']).openapi({ description: 'severity of the line' }),
  })
  .openapi('IntegrationEventLog', { description: "One line of an event's delivery trace." });

export const integrationEventDetailSchema = z
  .object({
    event: integrationEventSchema,
    trace: z
      .object({
        logs: z
          .array(logSchema)
          .openapi({ description: 'one line per delivery attempt: the URL, the status or error, the duration' }),
      })
      .openapi('IntegrationEventTrace', { description: "What happened to an event's delivery, line by line." }),
  })
  .openapi('IntegrationEventDetail', { description: 'An integration event together with the trace of its delivery.' });

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
