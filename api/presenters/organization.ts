/** GitBook's Organization object: declared with its schema in domain/organizations/wire.ts. */
import type { OrganizationPermissions } from '../../domain/access/authorize';
import { OrganizationJson, organizationJson, organizationSchema } from '../../domain/organizations/wire';
import type { Organization } from '../../entities/Organization';
import type { Urls } from './urls';

export { organizationSchema };

export function presentOrganization(
  org: Organization,
  permissions: OrganizationPermissions,
  urls: Urls,
): OrganizationJson {
  return organizationJson(org, permissions, urls);
}
