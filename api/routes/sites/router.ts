/**
 * Sites of an organization: list, create, read, update, delete, publish and unpublish (GitBook's
 * operations). Sections, section groups, site spaces, the structure and the published view are beside.
 */
import { authorize, viewableSites } from '../../../domain/access/authorize';
import { AccessContext } from '../../../domain/access/context';
import { badRequest } from '../../../domain/errors';
import { createSpaceForSite } from '../../../domain/sites/new-space';
import { sitesOfOrganizationQuery } from '../../../domain/sites/queries';
import { createSite, deleteSite, setPublished, UNTITLED_SITE, updateSite } from '../../../domain/sites/sites';
import type { Space } from '../../../entities/Space';
import { inTransaction } from '../../../platform/db/transactions';
import { loadVisibleOrganization } from '../../loaders';
import { hasIfMatch, requireMatch, taggedAnswer } from '../../middleware/conditional';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { siteSchema } from '../../presenters/site';
import { Urls } from '../../presenters/urls';
import { organizationIdParams } from '../orgs/schema';
import { deleteInSite, spaceForSite, viewableSite, writeSite } from './access';
import { adaptiveSchemaRoutes } from './adaptive-schema';
import { presentSiteFor, presentSitesFor, siteTag } from './present';
import { publishedSiteRoutes } from './published';
import { publishingAuthRoutes } from './publishing-auth';
import { createSiteBody, listSitesQuery, patchSiteBody, siteParams } from './schema';
import { sectionGroupRoutes } from './section-groups';
import { sectionRoutes } from './sections';
import { shareLinkRoutes } from './share-links';
import { siteSpaceRoutes } from './site-spaces';
import { structureRoutes } from './structure';

export function siteRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  const tags = ['sites'];

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/sites',
      operationId: 'listSites',
      description:
        "Lists the organization's sites, newest first, paginated with `next.page` and filtered by `space`, `title`, `published` and `type`. Full members see every site, a guest an empty list, an integration token the sites its installation covers. Changes nothing.",
      tags,
      summary: 'List the sites of an organization, newest first',
      params: organizationIdParams,
      query: listSitesQuery,
      responses: { 200: { description: 'sites', schema: listSchema(siteSchema) } },
    },
    async ({ params, query, access }) => {
      const organization = await loadVisibleOrganization(access, params.organizationId);
      const { space, title, published, type } = query;
      const page = await paginate(
        sitesOfOrganizationQuery(ds.manager, organization.id, await viewableSites(access, organization.id), {
          space,
          title,
          published,
          types: type,
        }),
        [
          { column: 's.createdAt', direction: 'DESC', value: (s) => s.createdAt },
          { column: 's.id', direction: 'DESC', value: (s) => s.id },
        ],
        {
          limit: query.limit,
          page: query.page,
          scope: `sites:${organization.id}:${JSON.stringify([space, title, published, type])}`,
        },
        config.cursorSecret,
      );
      return { status: 200, body: presentList(page, await presentSitesFor(access, page.items, urls)) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/orgs/{organizationId}/sites',
      operationId: 'createSite',
      description:
        'Creates an unpublished site in the organization (type `basic`, visibility `public` unless given) that shows the listed spaces at its root level in that order, the first as default. Needs `admin` on the organization; each listed space must be a live space of the organization the caller can view (else 400). `spaces: "empty"` or `"sample"` also creates a private space at the organization root titled after the site, blank or filled from the product-guide template, in the same transaction.',
      tags,
      summary:
        'Create an unpublished site, showing the given spaces (or a new one: "empty" or "sample") at its root level',
      params: organizationIdParams,
      body: createSiteBody,
      responses: { 201: { description: 'created', schema: siteSchema } },
    },
    async ({ params, body, caller, access }) => {
      const site = await inTransaction(api.deps, async (db) => {
        const writer = AccessContext.forCaller(db, caller);
        const organization = await loadVisibleOrganization(writer, params.organizationId);
        await authorize(writer, { kind: 'organization', organization }, 'admin');
        const spaces: Space[] = [];
        if (body.spaces === 'empty' || body.spaces === 'sample') {
          spaces.push(
            await createSpaceForSite(db, organization.id, body.title ?? UNTITLED_SITE, body.spaces, {
              createdById: caller.userId,
              appBaseUrl: config.appBaseUrl,
            }),
          );
        } else {
          for (const [i, id] of (body.spaces ?? []).entries()) {
            if (body.spaces!.indexOf(id) !== i) throw badRequest(`spaces.${i}: repeats a space listed before`);
            spaces.push(await spaceForSite(writer, organization, id, `spaces.${i}`));
          }
        }
        return createSite(db, organization.id, body, spaces);
      });
      const answer = await presentSiteFor(access, site, urls);
      return { status: 201, headers: { Location: answer.urls.location }, body: answer };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/sites/{siteId}',
      operationId: 'getSiteById',
      description:
        "Returns one site with the caller's `permissions` on it and how many site spaces it shows. Any full member of the organization may call it (an integration token: a site its installation covers); others get 404.",
      tags,
      summary: 'Get a site',
      params: siteParams,
      responses: {
        200: { description: 'site', schema: siteSchema },
        304: { description: 'not modified: the `If-None-Match` ETag is current (extension)' },
      },
    },
    async ({ params, access, req }) => {
      const { site } = await viewableSite(access, params.organizationId, params.siteId);
      const answer = await presentSiteFor(access, site, urls);
      return taggedAnswer(req, siteTag(site, answer), () => answer);
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/orgs/{organizationId}/sites/{siteId}',
      operationId: 'updateSiteById',
      description:
        "Changes the site's settings: fields left out stay as they are, and null removes `hostname`, `basename` or `proxy`. Needs `admin` on the site (the organization's admins); the write holds the site's lock. `defaultSiteSpace` and `defaultSiteSection` must name items of this site (else 400), and a host name another site uses is a 409.",
      tags,
      summary:
        'Update a site: title, visibility, hostname (409 when another site has it), basename, proxy, defaults, adaptive content, agents context',
      params: siteParams,
      body: patchSiteBody,
      responses: {
        200: { description: 'site', schema: siteSchema },
        412: { description: 'the `If-Match` ETag is not the current one (extension)' },
      },
    },
    async ({ params, body, caller, access, req }) => {
      const site = await writeSite(api.deps, caller, params, async (w) => {
        // checked under the site's lock, which the write holds: of two editors holding one ETag, the second gets 412
        if (hasIfMatch(req)) requireMatch(req, siteTag(w.site, await presentSiteFor(w.access, w.site, urls)));
        return updateSite(w.db, w.site, body);
      });
      return { status: 200, body: await presentSiteFor(access, site, urls) };
    },
  );

  api.op(
    {
      method: 'delete',
      path: '/v1/orgs/{organizationId}/sites/{siteId}',
      operationId: 'deleteSiteById',
      description:
        "Deletes the site with its sections, groups, site spaces, share links and signing key; the spaces it showed are kept and its host name is free again. Needs `admin` on the site (the organization's admins); 204 also when there is no such site. Each integration installed on the site is uninstalled with a `site_installation_deleted` event, delivered after the commit by an integration-dispatch job (see `listIntegrationEvents`; `node dist/cli/main.js jobs watch <event id>`).",
      tags,
      summary: 'Delete a site and its structure (its spaces stay); its hostname is free again',
      params: siteParams,
      responses: {
        204: { description: 'deleted, or there was no such site' },
        412: { description: 'the `If-Match` ETag is not the current one, or the site is gone (extension)' },
      },
    },
    async ({ params, caller, req }) => {
      await deleteInSite(
        api.deps,
        caller,
        params,
        async (w) => {
          if (hasIfMatch(req)) requireMatch(req, siteTag(w.site, await presentSiteFor(w.access, w.site, urls)));
          await deleteSite(w.db, w.site);
        },
        () => requireMatch(req, null),
      );
      return { status: 204 };
    },
  );

  for (const published of [true, false]) {
    api.op(
      {
        method: 'post',
        path: `/v1/orgs/{organizationId}/sites/{siteId}/${published ? 'publish' : 'unpublish'}`,
        operationId: published ? 'publishSite' : 'unpublishSite',
        description: published
          ? "Publishes the site: from the commit on, the audience its `visibility` names can read it at `urls.published` and through `getPublishedContentSite`. Needs `admin` on the site (the organization's admins); a site that shows no site space cannot be published (409)."
          : "Unpublishes the site: its published view answers 404 to everyone, members included, and its items lose their `urls.published`; its structure and settings stay. Needs `admin` on the site (the organization's admins).",
        tags,
        extension: true,
        summary: published
          ? "Publish a site (GitBook's operation): its audience, set by its visibility, can read it (409 when it shows no site space)"
          : "Unpublish a site (GitBook's operation)",
        params: siteParams,
        responses: { 200: { description: 'site', schema: siteSchema } },
      },
      async ({ params, caller, access }) => {
        const site = await writeSite(api.deps, caller, params, ({ db, site }) => setPublished(db, site, published));
        return { status: 200, body: await presentSiteFor(access, site, urls) };
      },
    );
  }

  sectionRoutes(api);
  sectionGroupRoutes(api);
  siteSpaceRoutes(api);
  structureRoutes(api);
  publishedSiteRoutes(api);
  shareLinkRoutes(api);
  publishingAuthRoutes(api);
  adaptiveSchemaRoutes(api);
}
