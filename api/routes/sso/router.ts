/** SAML identity providers (admins) and the sign-in entries they offer (every member). */
import { z } from 'zod';
import { authorize } from '../../../domain/access/authorize';
import {
  activeSamlProviders,
  createSamlProvider,
  deleteSamlProvider,
  findSamlProvider,
  samlProvidersQuery,
  updateSamlProvider,
} from '../../../domain/sso/saml-providers';
import { inTransaction } from '../../../platform/db/transactions';
import { loadOrganization, loadVisibleOrganization } from '../../loaders';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import {
  presentSamlProviders,
  presentSsoEntry,
  samlProviderSchema,
  ssoEntrySchema,
} from '../../presenters/saml-provider';
import { Urls } from '../../presenters/urls';
import {
  createSamlProviderBody,
  listSamlProvidersQuery,
  organizationIdParams,
  patchSamlProviderBody,
  samlProviderParams,
} from './schema';

export function ssoRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/saml',
      operationId: 'listSamlProviders',
      description:
        "Lists the organization's SAML identity providers, newest first, `pending` ones included. Needs `admin` on the organization.",
      tags: ['sso'],
      summary: 'List the SAML providers of an organization',
      params: organizationIdParams,
      query: listSamlProvidersQuery,
      responses: { 200: { description: 'SAML providers', schema: listSchema(samlProviderSchema) } },
    },
    async ({ params, query, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'admin');
      const page = await paginate(
        samlProvidersQuery(ds.manager, organization.id),
        [
          { column: 'p.createdAt', direction: 'DESC', value: (p) => p.createdAt },
          { column: 'p.id', direction: 'DESC', value: (p) => p.id },
        ],
        { limit: query.limit, page: query.page, scope: JSON.stringify(['saml-providers', organization.id]) },
        config.cursorSecret,
      );
      return { status: 200, body: presentList(page, await presentSamlProviders(access, page.items, urls)) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/saml',
      operationId: 'createSamlProvider',
      description:
        "Adds a SAML identity provider; only `label` is required. It stays `pending` and is not offered for sign-in until `entityID`, `ssoURL` and `certificate` are all set, then it is `active`. Needs `admin` on the organization; the answer's `service` says what to configure on the identity provider.",
      tags: ['sso'],
      summary: 'Add a SAML provider',
      params: organizationIdParams,
      body: createSamlProviderBody,
      responses: { 201: { description: 'created', schema: samlProviderSchema } },
    },
    async ({ params, body, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'admin');
      const provider = await inTransaction(ds, (db) => createSamlProvider(db, organization.id, body));
      const [presented] = await presentSamlProviders(access, [provider], urls);
      return { status: 201, headers: { Location: presented.urls.location }, body: presented };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
      operationId: 'getSamlProvider',
      description:
        'Returns one SAML provider, with the URLs to configure on the identity provider. Needs `admin` on the organization.',
      tags: ['sso'],
      summary: 'Get a SAML provider',
      params: samlProviderParams,
      responses: { 200: { description: 'SAML provider', schema: samlProviderSchema } },
    },
    async ({ params, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'admin');
      const provider = await findSamlProvider(ds.manager, organization.id, params.samlProviderId);
      const [body] = await presentSamlProviders(access, [provider], urls);
      return { status: 200, body };
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
      operationId: 'updateSamlProvider',
      description:
        'Changes a SAML provider\'s settings; fields left out keep their value, `""` unsets `entityID` or `certificate`, and null clears `defaultTeam` or `defaultRole`. Its `status` follows: `active` once all three identity provider settings are set, else `pending`. Needs `admin` on the organization.',
      tags: ['sso'],
      summary: 'Update a SAML provider',
      params: samlProviderParams,
      body: patchSamlProviderBody,
      responses: { 200: { description: 'SAML provider', schema: samlProviderSchema } },
    },
    async ({ params, body, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'admin');
      const provider = await inTransaction(ds, (db) =>
        updateSamlProvider(db, organization.id, params.samlProviderId, body),
      );
      const [presented] = await presentSamlProviders(access, [provider], urls);
      return { status: 200, body: presented };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/orgs/{organizationId}/saml/{samlProviderId}',
      operationId: 'deleteSamlProvider',
      description:
        'Deletes a SAML provider; members can no longer sign in through it. Needs `admin` on the organization; an unknown provider answers 204.',
      tags: ['sso'],
      summary: 'Delete a SAML provider',
      params: samlProviderParams,
      responses: { 204: { description: 'deleted, or there was no such provider' } },
    },
    async ({ params, access }) => {
      const organization = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization }, 'admin');
      await inTransaction(ds, (db) => deleteSamlProvider(db, organization.id, params.samlProviderId));
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/sso',
      operationId: 'listSsoEntries',
      description:
        'Lists the ways to sign in to the organization through single sign-on: its `active` SAML providers, oldest first, each with the URL that starts a sign-in. Any member of the organization, guests included.',
      tags: ['sso'],
      summary: 'The single sign-on entries of an organization',
      params: organizationIdParams,
      responses: {
        200: {
          description: 'SSO entries',
          schema: z.object({
            items: z
              .array(ssoEntrySchema)
              .openapi({ description: 'the active SAML providers, oldest first (not paginated)' }),
          }),
        },
      },
    },
    async ({ params, access }) => {
      const organization = await loadVisibleOrganization(access, params.organizationId);
      const providers = await activeSamlProviders(ds.manager, organization.id);
      return { status: 200, body: { items: providers.map((p) => presentSsoEntry(p, urls)) } };
    },
  );
}
