/**
 * Development mode (`gitbook dev`), for the admins of the integration's organization: PUT sends the
 * integration's events to a tunnel (204), DELETE stops it (204; GitBook answers 205, which strict clients of 0.137 do not expect).
 */
import { z } from 'zod';
import { disableDevelopmentMode, setDevelopmentMode } from '../../../domain/integrations/dev-mode';
import { inTransaction } from '../../../platform/db/transactions';
import type { ApiBuilder } from '../../operation';
import { integrationFor } from './installation-access';
import { integrationNameParams } from './schema';

const devModeBody = z
  .object({
    tunnelUrl: z
      .string()
      .min(1)
      .max(256)
      .url()
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL')
      .openapi({
        description:
          'URL of the tunnel that receives the events (POST <tunnelUrl>/v1), reached through the guarded fetch',
      }),
    all: z.boolean().default(false).openapi({
      description: "true: every organization's events go to the tunnel, not only the owner organization's",
    }),
  })
  .strict();

export function devModeRoutes(api: ApiBuilder): void {
  const { ds } = api.deps;
  const tags = ['integrations'];

  api.op(
    {
      method: 'put',
      path: '/v1/integrations/{integrationName}/dev',
      operationId: 'setIntegrationDevelopmentMode',
      tags,
      summary: "Send the integration's events to a development tunnel (admins of its organization)",
      description:
        "Turns development mode on: events recorded from now on for the owner organization (with `all: true`, for every organization) are delivered to `tunnelUrl`, each by its own `integration-dispatch` job (`node dist/cli/main.js jobs watch <eventId>`). Needs `admin` on the integration's owner organization (a user's token). Changes only the integration's development settings.",
      params: integrationNameParams,
      body: devModeBody,
      responses: { 204: { description: 'development mode on' } },
    },
    async ({ params, body, access }) => {
      await inTransaction(ds, async (db) => {
        const integration = await integrationFor(access.within(db), params.integrationName, 'admin');
        await setDevelopmentMode(db, integration, body);
      });
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/integrations/{integrationName}/dev',
      operationId: 'disableIntegrationDevelopmentMode',
      tags,
      summary: "Stop sending the integration's events to its development tunnel (admins of its organization)",
      description:
        "Turns development mode off: events recorded from now on go nowhere (they are recorded as `failed`), while events already recorded keep their tunnel and their delivery goes on. Needs `admin` on the integration's owner organization (a user's token).",
      params: integrationNameParams,
      responses: { 204: { description: 'development mode off' } },
    },
    async ({ params, access }) => {
      await inTransaction(ds, async (db) => {
        const integration = await integrationFor(access.within(db), params.integrationName, 'admin');
        await disableDevelopmentMode(db, integration);
      });
      return { status: 204 };
    },
  );
}
