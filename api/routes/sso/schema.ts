import { z } from 'zod';
import { resourceId } from '../../schemas';
import { roleSchema } from '../../presenters/common';
import { paginationQuery } from '../../query';


function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

const label = z.string().trim().min(1).max(255);
const entityID = z.string().trim().min(1).max(1024);
const certificate = z.string().min(1).max(16384).openapi({ description: 'X.509 certificate of the identity provider, PEM or base64 DER' });
const ssoURL = z.string().max(2048).url().refine(isHttpsUrl, 'must be an https URL');

export const organizationIdParams = { organizationId: resourceId };
export const samlProviderParams = { organizationId: resourceId, samlProviderId: resourceId };

export const listSamlProvidersQuery = { ...paginationQuery };

export const createSamlProviderBody = z
  .object({
    label,
    entityID,
    certificate,
    ssoURL,
    defaultTeam: resourceId.optional().openapi({ description: 'id of a team of the organization that new SSO members join' }),
    defaultRole: roleSchema.optional().openapi({ description: 'organization role of new SSO members' }),
  })
  .strict();

export const patchSamlProviderBody = z
  .object({
    label: label.optional(),
    entityID: entityID.optional(),
    certificate: certificate.optional(),
    ssoURL: ssoURL.optional(),
    defaultTeam: resourceId.nullable().optional().openapi({ description: 'null removes the default team' }),
    defaultRole: roleSchema.nullable().optional().openapi({ description: 'null removes the default role' }),
  })
  .strict();
