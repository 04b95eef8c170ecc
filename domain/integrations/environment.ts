/**
 * The `environment` an integration receives with each event (GitBook's IntegrationEnvironment): its
 * own Integration object, the installation (and the space or site installation the event is about),
 * its secrets in clear, the signing secrets, where the API is, and fresh short-lived API tokens.
 * GitBook's runtime answers 500 without integration, apiEndpoint, apiTokens, secrets and signingSecrets.
 */
import type { Config } from '../config';
import type { Db } from '../db';
import { Integration } from '../../entities/Integration';
import type { IntegrationEvent } from '../../entities/IntegrationEvent';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { IntegrationSiteInstallation } from '../../entities/IntegrationSiteInstallation';
import { IntegrationSpaceInstallation } from '../../entities/IntegrationSpaceInstallation';
import { Organization } from '../../entities/Organization';
import { coveredSpaceCounts } from './installation-queries';
import { decryptSecrets } from './secrets';
import { issueIntegrationTokens } from './tokens';
import { installationJson, integrationJson, siteInstallationJson, spaceInstallationJson } from './wire';

/**
 * Builds it for one delivery attempt (the tokens are issued in `db`'s transaction). The integration
 * may be a tombstone and the installation gone (installation_deleted): then there is no installation.
 */
export async function eventEnvironment(db: Db, config: Config, event: IntegrationEvent) {
  const integration = await db.findOneByOrFail(Integration, { id: event.integrationId });
  const owner = await db.findOneByOrFail(Organization, { id: integration.ownerOrganizationId });
  const installation = event.installationId ? await db.findOneBy(IntegrationInstallation, { id: event.installationId }) : null;
  const spaceInstallation = installation && event.spaceId ? await db.findOneBy(IntegrationSpaceInstallation, { installationId: installation.id, spaceId: event.spaceId }) : null;
  const siteInstallation = installation && event.siteId ? await db.findOneBy(IntegrationSiteInstallation, { installationId: installation.id, siteId: event.siteId }) : null;
  return {
    integration: integrationJson(integration, owner, { admin: false }, config),
    ...(installation ? { installation: installationJson(integration, installation, (await coveredSpaceCounts(db, [installation])).get(installation.id) ?? 0, config) } : {}),
    ...(spaceInstallation ? { spaceInstallation: spaceInstallationJson(integration, spaceInstallation, config) } : {}),
    ...(siteInstallation ? { siteInstallation: siteInstallationJson(integration, siteInstallation, config) } : {}),
    secrets: decryptSecrets(config, integration),
    signingSecrets: { integration: integration.signingSecret, ...(installation ? { installation: installation.signingSecret } : {}) },
    apiEndpoint: config.publicBaseUrl,
    apiTokens: await issueIntegrationTokens(db, config, { integration, installation }),
  };
}
