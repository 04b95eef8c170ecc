import { z } from 'zod';
import { roleSchema } from '../../presenters/common';
import { paginationQuery } from '../../query';
import { httpsUrl, pathId, resourceId, text } from '../../schemas';

const label = text({ min: 1, max: 255, trim: true }).openapi({
  description: 'name shown to members on the sign-in entry, 1 to 255 characters',
});
// "" leaves a setting unset: the provider stays `pending` until entityID, ssoURL and certificate are all set
const entityID = text({ max: 1024, trim: true }).openapi({
  description: 'entity id of the identity provider; "" unsets it',
});
const certificate = text({ max: 16384, characters: 'lines' }).openapi({
  description: 'X.509 certificate of the identity provider, PEM or base64 DER; "" unsets it',
});
const ssoURL = httpsUrl.openapi({
  description: "https URL of the identity provider's sign-in endpoint, at most 2048 characters",
});

export const organizationIdParams = { organizationId: pathId('organization') };
export const samlProviderParams = { organizationId: pathId('organization'), samlProviderId: pathId('SAML provider') };

export const listSamlProvidersQuery = { ...paginationQuery };

/** Only the label is required (as in GitBook): the provider is `pending` until it is configured. */
export const createSamlProviderBody = z
  .object({
    label,
    entityID: entityID.optional(),
    certificate: certificate.optional(),
    ssoURL: ssoURL.optional(),
    defaultTeam: resourceId
      .optional()
      .openapi({ description: 'id of a team of the organization that new SSO members join' }),
    defaultRole: roleSchema
      .nullable()
      .optional()
      .openapi({ description: 'organization role of new SSO members; null (or omitted): none set' }),
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
