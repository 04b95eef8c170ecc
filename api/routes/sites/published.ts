/** `GET …/published`: the whole published site in one answer (GitBook's getPublishedContentSite). */
import { siteScripts } from '../../../domain/integrations/site-scripts';
import { visitorSees } from '../../../domain/sites/adaptive/evaluate';
import { openPublishedSite } from '../../../domain/sites/visitors';
import type { ApiBuilder } from '../../operation';
import { openedWithShareKey } from '../../presenters/share-key-urls';
import { presentPublishedSite, presentSiteStructure, publishedSiteSchema } from '../../presenters/site-published';
import { siteAddress } from '../../presenters/site-urls';
import { Urls } from '../../presenters/urls';
import { text } from '../../schemas';
import { presentSiteFor, structureFor } from './present';
import { listSectionsQuery, siteParams } from './schema';

const publishedQuery = {
  shareKey: listSectionsQuery.shareKey,
  visitorAuthToken: text({ min: 1, max: 8192 }).optional().openapi({
    description:
      "a visitor token: a JWT signed (HS256) with the site's key (…/publishing/auth), with an expiry (`exp`) at most 7 days (by default) after its `iat`. It opens a visitor-auth site, and its claims, with unsigned ones given as `visitor.<name>` parameters, decide which sections and site spaces with a condition are shown",
  }),
};

export function publishedSiteRoutes(api: ApiBuilder): void {
  const urls = new Urls(api.deps.config);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/sites/{siteId}/published',
      operationId: 'getPublishedContentSite',
      description:
        "Returns the published site in one answer: the site, its structure as its reader sees it, its customizations and its integrations' scripts; 404 while it is not published. Members who view the site read all of it; a caller of any organization reads a `share-link` site with an active `shareKey` and a `visitor-auth` site with a valid `visitorAuthToken`. Items whose condition the caller's claims (the token's, and `visitor.<name>` parameters) do not meet are left out; an invalid key or token is a 404.",
      tags: ['sites'],
      summary:
        'The published site: the site, its structure in order (sections and groups, or site spaces), its customizations and scripts. Members read all of it; a caller of any organization reads a share-link site with `shareKey`, a visitor-auth site with `visitorAuthToken`, and sees the items whose conditions their claims meet (404 while the site is not published)',
      params: siteParams,
      query: publishedQuery,
      responses: { 200: { description: 'published site', schema: publishedSiteSchema } },
    },
    async ({ params, query, access, req }) => {
      // the organization need not be the caller's: a visitor's pass may open the site
      const { site, visitor, viewAll } = await openPublishedSite(access, {
        ...params,
        credentials: { ...query, query: req.query as Record<string, unknown> },
        maxTokenLifetimeSeconds: api.deps.config.visitorTokenMaxLifetimeSeconds,
      });
      const claims = visitor.claims ?? (viewAll ? null : {});
      const { structure, spaces } = await structureFor(
        access,
        site,
        urls,
        claims ? (condition) => visitorSees(condition, claims) : undefined,
      );
      const body = presentPublishedSite(
        await presentSiteFor(access, site, urls),
        presentSiteStructure(site, structure, spaces, urls),
        await siteScripts(access.db, site, api.deps.config),
      );
      return {
        status: 200,
        body: query.shareKey === undefined ? body : openedWithShareKey(body, siteAddress(site, urls), query.shareKey),
      };
    },
  );
}
