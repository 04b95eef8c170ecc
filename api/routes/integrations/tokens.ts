/**
 * GitBook's `createIntegrationInstallationToken`: an integration, calling with its own token (the one
 * every event's environment carries), mints a short-lived token of one of its installations, e.g. to act
 * for the installation an outside webhook names. The one access function decides (`issueToken`).
 */

import { issueInstallationToken } from '../../../domain/integrations/tokens';
import { inTransaction } from '../../../platform/db/transactions';
import type { ApiBuilder } from '../../operation';
import { temporaryTokenSchema } from '../../presenters/token';
import { installationFor } from './installation-access';
import { installationParams } from './installation-schema';

export function installationTokenRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;

  api.op(
    {
      method: 'post',
      path: '/v1/integrations/{integrationName}/installations/{installationId}/tokens',
      operationId: 'createIntegrationInstallationToken',
      secretInAnswer: true,
      tags: ['integrations'],
      extension: true,
      summary:
        "Create a temporary API token of one of the integration's installations (only the integration's own token may: 403 for any other)",
      description:
        "Mints a short-lived API token for one installation of the integration: it acts in that installation's organization, within the scopes the installation was granted. Only the integration's own token may call it (403 for users and installation tokens). The token is a new api_tokens row of the integration's bot user that expires after INTEGRATION_TOKEN_TTL_SECONDS (3600 by default).",
      params: installationParams,
      responses: { 200: { description: 'the installation token', schema: temporaryTokenSchema } },
    },
    async ({ params, access }) => {
      const token = await inTransaction(ds, async (db) =>
        issueInstallationToken(db, config, await installationFor(access.within(db), params, 'issueToken')),
      );
      return { status: 200, body: { token } };
    },
  );
}
