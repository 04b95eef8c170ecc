/**
 * An integration's events, for the admins of its owner organization only: the list,
 * newest first and paginated (what `gitbook tail` polls), and one event with its trace, a line per
 * delivery attempt.
 */
import { notFound } from '../../../domain/errors';
import { integrationEventsQuery } from '../../../domain/integrations/events';
import { IntegrationEvent } from '../../../entities/IntegrationEvent';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import {
  integrationEventDetailSchema,
  integrationEventSchema,
  presentIntegrationEvent,
  presentIntegrationEventDetail,
} from '../../presenters/integration-event';
import { paginationQuery } from '../../query';
import { pathId } from '../../schemas';
import { integrationFor } from './installation-access';
import { integrationNameParams } from './schema';

const eventParams = {
  ...integrationNameParams,
  eventId: pathId('event').openapi({ description: 'id of the event' }),
};

export function eventRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const tags = ['integrations'];

  api.op(
    {
      method: 'get',
      path: '/v1/integrations/{integrationName}/events',
      operationId: 'listIntegrationEvents',
      tags,
      summary: "List the integration's events, newest first (admins of its organization)",
      description:
        "Lists the events recorded for the integration, newest first and paginated (what `gitbook tail` polls). Needs `admin` on the integration's owner organization. An event delivered to a development tunnel is sent by its `integration-dispatch` job, followed with `node dist/cli/main.js jobs watch <eventId>`. Read-only.",
      params: integrationNameParams,
      query: { ...paginationQuery },
      responses: { 200: { description: 'integration events', schema: listSchema(integrationEventSchema) } },
    },
    async ({ params, query, access }) => {
      const integration = await integrationFor(access, params.integrationName, 'admin');
      const page = await paginate(
        integrationEventsQuery(ds.manager, integration.id),
        [
          { column: 'e.createdAt', direction: 'DESC', value: (e) => e.createdAt },
          { column: 'e.id', direction: 'DESC', value: (e) => e.id },
        ],
        { limit: query.limit, page: query.page, scope: `integration-events:${integration.id}` },
        config.cursorSecret,
      );
      return { status: 200, body: presentList(page, page.items.map(presentIntegrationEvent)) };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/integrations/{integrationName}/events/{eventId}',
      operationId: 'getIntegrationEvent',
      tags,
      summary:
        'Get an integration event with its trace: each delivery attempt, its URL, status or error and duration (admins of its organization)',
      description:
        "Returns one event of the integration with its payload and the trace of its delivery, a line per attempt (URL, status or error, duration). Needs `admin` on the integration's owner organization. Read-only.",
      params: eventParams,
      responses: { 200: { description: 'the event and its trace', schema: integrationEventDetailSchema } },
    },
    async ({ params, access }) => {
      const integration = await integrationFor(access, params.integrationName, 'admin');
      const event = await ds.manager.findOneBy(IntegrationEvent, { id: params.eventId, integrationId: integration.id });
      if (!event) throw notFound('event');
      return { status: 200, body: presentIntegrationEventDetail(event) };
    },
  );
}
