/** GitBook's Integration object: declared with its schema in domain/integrations/wire.ts. */
import type { IntegrationPermissions, OrganizationPermissions } from '../../domain/access/targets';
import { IntegrationJson, integrationJson, integrationSchema } from '../../domain/integrations/wire';
import type { Integration } from '../../entities/Integration';
import type { Organization } from '../../entities/Organization';
import type { Config } from '../../platform/config';

export { integrationSchema };

export function presentIntegration(
  integration: Integration,
  owner: Organization,
  permissions: IntegrationPermissions,
  ownerPermissions: OrganizationPermissions,
  config: Config,
): IntegrationJson {
  return integrationJson(integration, owner, permissions, config, ownerPermissions);
}
