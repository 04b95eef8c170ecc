/**
 * Share links of a site (GitBook's site-share-links operations, beyond our spec): list, create, rename,
 * (de)activate, delete. Their keys open the site, so only the site's admins see and manage them.
 */
import { z } from 'zod';
import { authorize } from '../../../domain/access/authorize';
import {
  createShareLink,
  deleteShareLink,
  findShareLink,
  shareLinksOfSiteQuery,
  updateShareLink,
} from '../../../domain/sites/share-links';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { presentShareLink, shareLinkSchema } from '../../presenters/share-link';
import { Urls } from '../../presenters/urls';
import { paginationQuery } from '../../query';
import { nonEmpty, pathId, text } from '../../schemas';
import { deleteInSite, viewableSite, writeSite } from './access';
import { siteParams } from './schema';

/** GitBook's ShareLinkName: up to 50 characters, empty allowed. */
const name = text({ max: 50, trim: true }).openapi({
  description: 'a name to tell the link from the others: 0–50 characters, trimmed',
});
const shareLinkParams = {
  ...siteParams,
  shareLinkId: pathId('share link').openapi({ description: "id of the share link, one of the site's" }),
};
const createShareLinkBody = z.object({ name }).strict();
const patchShareLinkBody = nonEmpty(
  z
    .object({
      name: name.optional(),
      active: z
        .boolean()
        .optional()
        .openapi({ description: 'false: its key opens nothing from now on; true: it opens the site again' }),
    })
    .strict(),
);

export function shareLinkRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);
  const tags = ['sites'];
  const base = '/v1/orgs/{organizationId}/sites/{siteId}/share-links';

  api.op(
    {
      method: 'get',
      path: base,
      operationId: 'listSiteShareLinks',
      description:
        "Lists the site's share links, newest first, with their keys, paginated with `next.page`. Needs `admin` on the site (the organization's admins): the keys open the site.",
      tags,
      extension: true,
      summary: "List a site's share links, newest first (site admins)",
      params: siteParams,
      query: { ...paginationQuery },
      responses: { 200: { description: 'share links', schema: listSchema(shareLinkSchema) } },
    },
    async ({ params, query, access }) => {
      const { site } = await viewableSite(access, params.organizationId, params.siteId);
      await authorize(access, { kind: 'site', site }, 'admin');
      const page = await paginate(
        shareLinksOfSiteQuery(ds.manager, site.id),
        [
          { column: 'l.createdAt', direction: 'DESC', value: (l) => l.createdAt },
          { column: 'l.id', direction: 'DESC', value: (l) => l.id },
        ],
        { limit: query.limit, page: query.page, scope: `share-links:${site.id}` },
        config.cursorSecret,
      );
      return {
        status: 200,
        body: presentList(
          page,
          page.items.map((link) => presentShareLink(site, link, urls)),
        ),
      };
    },
  );

  api.op(
    {
      method: 'post',
      path: base,
      operationId: 'createSiteShareLink',
      secretInAnswer: true,
      description:
        "Creates an active share link with a new random key (192 bits); once the site is published with visibility `share-link`, the key opens it. Needs `admin` on the site (the organization's admins); a site has at most 100 links (409).",
      tags,
      extension: true,
      summary: 'Create an active share link with a new random key (site admins; 409 past 100 links)',
      params: siteParams,
      body: createShareLinkBody,
      responses: { 201: { description: 'created', schema: shareLinkSchema } },
    },
    async ({ params, body, caller }) => {
      const { site, link } = await writeSite(api.deps, caller, params, async ({ db, site }) => ({
        site,
        link: await createShareLink(db, site, body.name),
      }));
      return {
        status: 201,
        headers: { Location: urls.api(`/orgs/${site.organizationId}/sites/${site.id}/share-links/${link.id}`) },
        body: presentShareLink(site, link, urls),
      };
    },
  );

  api.op(
    {
      method: 'patch',
      path: `${base}/{shareLinkId}`,
      operationId: 'updateSiteShareLinkById',
      secretInAnswer: true,
      description:
        "Renames a share link or turns it off and on: the key of an inactive link opens nothing. Needs `admin` on the site (the organization's admins); give `name`, `active` or both.",
      tags,
      extension: true,
      summary: 'Rename a share link, or (de)activate it: the key of an inactive link opens nothing (site admins)',
      params: shareLinkParams,
      body: patchShareLinkBody,
      responses: { 200: { description: 'share link', schema: shareLinkSchema } },
    },
    async ({ params, body, caller }) => {
      const { site, link } = await writeSite(api.deps, caller, params, async ({ db, site }) => ({
        site,
        link: await updateShareLink(db, await findShareLink(db, site.id, params.shareLinkId), body),
      }));
      return { status: 200, body: presentShareLink(site, link, urls) };
    },
  );

  api.op(
    {
      method: 'delete',
      path: `${base}/{shareLinkId}`,
      operationId: 'deleteSiteShareLinkById',
      description:
        "Deletes a share link: its key opens nothing from the commit on. Needs `admin` on the site (the organization's admins); 204 also when there is no such link.",
      tags,
      extension: true,
      summary: 'Delete a share link: its key opens nothing from now on (204 also when there was no such link)',
      params: shareLinkParams,
      responses: { 204: { description: 'deleted, or there was no such link' } },
    },
    async ({ params, caller }) => {
      await deleteInSite(api.deps, caller, params, ({ db, site }) => deleteShareLink(db, site.id, params.shareLinkId));
      return { status: 204 };
    },
  );
}
