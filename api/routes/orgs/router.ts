/** Organizations: list the caller's, create (extension), read, update. */
import { authorize, permissionsOf } from '../../../domain/access/authorize';
import {
  createOrganization,
  organizationsOfUserQuery,
  updateOrganization,
} from '../../../domain/organizations/organizations';
import { inTransaction } from '../../../platform/db/transactions';
import { loadOrganization } from '../../loaders';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { organizationSchema, presentOrganization } from '../../presenters/organization';
import { Urls } from '../../presenters/urls';
import { createOrganizationBody, listOrganizationsQuery, organizationIdParams, patchOrganizationBody } from './schema';

export function organizationRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs',
      operationId: 'listOrganizations',
      description:
        "Lists the organizations the caller belongs to (memberships that are not disabled, guests included), newest first. Any authenticated caller; each item's `permissions` are the caller's there.",
      tags: ['organizations'],
      summary: "List the caller's organizations",
      query: listOrganizationsQuery,
      responses: { 200: { description: 'organizations', schema: listSchema(organizationSchema) } },
    },
    async ({ query, caller, access }) => {
      const page = await paginate(
        organizationsOfUserQuery(ds.manager, caller.userId),
        [
          { column: 'o.createdAt', direction: 'DESC', value: (o) => o.createdAt },
          { column: 'o.id', direction: 'DESC', value: (o) => o.id },
        ],
        { limit: query.limit, page: query.page, scope: `orgs:${caller.userId}` },
        config.cursorSecret,
      );
      const items = [];
      for (const org of page.items)
        items.push(
          presentOrganization(org, await permissionsOf(access, { kind: 'organization', organization: org }), urls),
        );
      return { status: 200, body: presentList(page, items) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs',
      operationId: 'createOrganization',
      description:
        "Creates an organization and makes the caller its first `admin`. New organizations get `defaultRole` `read`, `plan` `free_2024` and invite links on; a claimed e-mail domain must be the caller's own (400 otherwise) and a taken `hostname` is a 409. A user's own token only: an integration's token gets a 403.",
      tags: ['organizations'],
      extension: true,
      userOnly: true,
      summary: 'Create an organization with the caller as its admin',
      body: createOrganizationBody,
      responses: { 201: { description: 'created', schema: organizationSchema } },
    },
    async ({ body, caller, access }) => {
      const org = await inTransaction(ds, (db) => createOrganization(db, body, caller.userId));
      const location = urls.api(`/orgs/${org.id}`);
      return {
        status: 201,
        headers: { Location: location },
        body: presentOrganization(org, await permissionsOf(access, { kind: 'organization', organization: org }), urls),
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}',
      operationId: 'getOrganization',
      description:
        "Returns one organization with the caller's permissions in it. Any member of the organization may read it, guests included; to others it is a 404.",
      tags: ['organizations'],
      summary: 'Get an organization',
      params: organizationIdParams,
      responses: { 200: { description: 'organization', schema: organizationSchema } },
    },
    async ({ params, access }) => {
      const org = await loadOrganization(access, params.organizationId);
      const perms = await authorize(access, { kind: 'organization', organization: org }, 'view');
      return { status: 200, body: presentOrganization(org, perms, urls) };
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/orgs/{organizationId}',
      operationId: 'updateOrganization',
      description:
        "Changes the organization's settings; fields left out keep their value. Needs `admin` on the organization. A domain added to `emailDomains` must be the caller's own e-mail domain and no public mail provider's (400); a `hostname` another organization uses is a 409.",
      tags: ['organizations'],
      summary: 'Update an organization',
      params: organizationIdParams,
      body: patchOrganizationBody,
      responses: { 200: { description: 'organization', schema: organizationSchema } },
    },
    async ({ params, body, access, caller }) => {
      const updated = await inTransaction(ds, async (db) => {
        const org = await loadOrganization(access, params.organizationId);
        await authorize(access, { kind: 'organization', organization: org }, 'admin');
        return updateOrganization(db, org, body, caller.userId);
      });
      const perms = await permissionsOf(access, { kind: 'organization', organization: updated });
      return { status: 200, body: presentOrganization(updated, perms, urls) };
    },
  );
}
