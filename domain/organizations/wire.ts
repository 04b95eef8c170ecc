/**
 * An organization as GitBook's `Organization` object, built without the HTTP layer: the API's presenter
 * (api/presenters/organization.ts, which documents it with its zod schema) and the integration
 * environment that activities send (domain/integrations/wire.ts) both use it. GitBook's optional fields are left
 * out when they have no value (the environment has no serialization step of its own; the API's would).
 */

import type { Organization } from '../../entities/Organization';
import type { Role } from '../access/roles';
import type { OrganizationPermissions } from '../access/targets';
import type { Urls } from '../urls';
import { present } from '../wire-fields';

export interface OrganizationJson {
  object: 'organization';
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: string;
  useCase?: string;
  communityType?: string;
  defaultRole?: Role;
  defaultContent?: { type: string; site: string };
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
  mergeRules: { type: 'none' };
  urls: { location: string; app: string; logo?: string };
  trial: { status: 'notapplicable'; count: number };
  internal_isOnNewTrial: true;
  permissions: Record<string, boolean>;
}

export function organizationJson(
  org: Organization,
  permissions: OrganizationPermissions,
  urls: Urls,
): OrganizationJson {
  return {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt.toISOString(),
    emailDomains: org.emailDomains,
    ...present({ hostname: org.hostname }),
    type: org.type,
    // left out when unset, as the API answers it: a null would read as "guest" to GitBook's client
    ...present({ useCase: org.useCase, communityType: org.communityType, defaultRole: org.defaultRole }),
    ...present({ defaultContent: org.defaultContent }),
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    mergeRules: { type: 'none' },
    urls: { location: urls.api(`/orgs/${org.id}`), app: urls.app(`/o/${org.id}`), ...present({ logo: org.logoURL }) },
    trial: { status: 'notapplicable', count: 0 },
    internal_isOnNewTrial: true,
    permissions: { ...permissions },
  };
}
