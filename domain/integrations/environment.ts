/**
 * The `environment` an integration receives with each event (GitBook's IntegrationEnvironment): its
 * own Integration object, the installation (and the space or site installation the event is about),
 * its secrets in clear, the signing secrets, where the API is, and fresh short-lived API tokens.
 * GitBook's runtime answers 500 without integration, apiEndpoint, apiTokens, secrets and signingSecrets.
 */

import { Integration } from '../../entities/Integration';
import type { IntegrationEvent } from '../../entities/IntegrationEvent';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import { Organization } from '../../entities/Organization';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/transactions';
import { toWire } from '../../platform/wire/to-wire';
import { z } from '../../platform/wire/zod';
import { coveredSpaceCounts } from './installation-queries';
import { decryptSecrets } from './secrets';
import { issueIntegrationTokens } from './tokens';
import {
  installationJson,
  installationSchema,
  integrationJson,
  integrationSchema,
  siteInstallationIdSchema,
  siteInstallationJson,
  spaceInstallationIdSchema,
  spaceInstallationJson,
} from './wire';

/** GitBook's IntegrationEnvironment as this service fills it: written to the wire by the API's own step. */
const environmentSchema = z.object({
  integration: integrationSchema,
  installation: installationSchema.optional(),
  spaceInstallation: spaceInstallationIdSchema.optional(),
  siteInstallation: siteInstallationIdSchema.optional(),
  secrets: z.record(z.string()),
  signingSecrets: z.object({ integration: z.string(), installation: z.string().optional() }),
  apiEndpoint: z.string(),
  apiTokens: z.object({ integration: z.string(), installation: z.string().optional() }),
});

export type IntegrationEnvironment = z.infer<typeof environmentSchema>;

/**
 * Under `space_selection` (`site_selection`) `all` a space (site) with no installation row of its own is
 * covered all the same: it is presented as installed with the installation's status and no configuration
 * or external ids of its own, so the integration's runtime finds `spaceInstallation` (`siteInstallation`) as
 * for a selected one.
 */
function implicitOn(installation: IntegrationInstallation) {
  const { id: installationId, integrationId, organizationId, status, createdAt, updatedAt } = installation;
  return {
    installationId,
    integrationId,
    organizationId,
    status,
    configuration: {},
    externalIds: [],
    createdAt,
    updatedAt,
  };
}

/**
 * Builds it for one delivery attempt (the tokens are issued in `db`'s transaction). The integration
 * may be a tombstone and the installation gone (installation_deleted): then there is no installation.
 */
export async function eventEnvironment(
  db: Db,
  config: Config,
  event: IntegrationEvent,
): Promise<IntegrationEnvironment> {
  const integration = await db.findOneByOrFail(Integration, { id: event.integrationId });
  const owner = await db.findOneByOrFail(Organization, { id: integration.ownerOrganizationId });
  const installation = event.installationId
    ? await db.findOneBy(IntegrationInstallation, { id: event.installationId })
    : null;
  const spaceInstallation =
    installation && event.spaceId
      ? ((await db.findOneBy(IntegrationSpaceInstallation, {
          installationId: installation.id,
          spaceId: event.spaceId,
        })) ??
        (installation.spaceSelection === 'all'
          ? Object.assign(new IntegrationSpaceInstallation(), implicitOn(installation), { spaceId: event.spaceId })
          : null))
      : null;
  const siteInstallation =
    installation && event.siteId
      ? ((await db.findOneBy(IntegrationSiteInstallation, { installationId: installation.id, siteId: event.siteId })) ??
        (installation.siteSelection === 'all'
          ? Object.assign(new IntegrationSiteInstallation(), implicitOn(installation), { siteId: event.siteId })
          : null))
      : null;
  const environment = {
    integration: integrationJson(integration, owner, { admin: false }, config),
    installation:
      installation &&
      installationJson(
        integration,
        installation,
        (await coveredSpaceCounts(db, [installation])).get(installation.id) ?? 0,
        config,
      ),
    spaceInstallation: spaceInstallation && spaceInstallationJson(integration, spaceInstallation, config),
    siteInstallation: siteInstallation && siteInstallationJson(integration, siteInstallation, config),
    secrets: decryptSecrets(config, integration),
    signingSecrets: { integration: integration.signingSecret, installation: installation?.signingSecret },
    apiEndpoint: config.publicBaseUrl,
    apiTokens: await issueIntegrationTokens(db, config, { integration, installation }),
  };
  return toWire(environmentSchema, environment);
}
