/** Site spaces: list, add (201), update, delete (the last one of a section takes the section along), and the deprecated move. */
import type { AccessContext } from '../../../domain/access/context';
import { notFound } from '../../../domain/errors';
import { deleteSiteSpace } from '../../../domain/sites/removal';
import { addSiteSpace, updateSiteSpace } from '../../../domain/sites/site-spaces';
import {
  findSection,
  findSiteSpace,
  loadStructure,
  PlacedSiteSpace,
  SiteStructure,
} from '../../../domain/sites/structure';
import type { Site } from '../../../entities/Site';
import { SiteSpace } from '../../../entities/SiteSpace';
import { pageInMemory } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { PresentedSpace, presentSiteSpace, siteSpaceSchema } from '../../presenters/site-space';
import { Urls } from '../../presenters/urls';
import { deleteInSite, sortInSite, spaceForSite, spaceOrNew, viewableSite, writeSite } from './access';
import { stillShown, structureFor } from './present';
import {
  addSiteSpaceBody,
  listSiteSpacesQuery,
  moveSiteSpaceBody,
  patchSiteSpaceBody,
  siteParams,
  siteSpaceParams,
} from './schema';
import { withSiteShareKey } from './share-key';

export function siteSpaceRoutes(api: ApiBuilder): void {
  const { config } = api.deps;
  const urls = new Urls(config);
  const tags = ['sites'];
  const base = '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces';

  const presentPlaced = (
    site: Site,
    structure: SiteStructure,
    placed: PlacedSiteSpace,
    spaces: Map<string, PresentedSpace>,
  ) =>
    presentSiteSpace(
      site,
      placed,
      placed.row.sectionId === null ? null : findSection(structure, placed.row.sectionId)!.row.path,
      spaces.get(placed.space.id)!,
      urls,
    );

  async function present(access: AccessContext, site: Site, siteSpaceId: string) {
    const { structure, spaces } = await structureFor(access, site, urls);
    return presentPlaced(site, structure, stillShown(findSiteSpace(structure, siteSpaceId), 'site space'), spaces);
  }

  api.op(
    {
      method: 'get',
      path: base,
      operationId: 'listSiteSpaces',
      description:
        "Lists the site's site spaces in reading order, each with the space it shows, paginated with `next.page`; `default` keeps only the default ones, or only the others. Any full member of the organization may call it (an integration token: a site its installation covers); others get 404. Site spaces of a deleted space are hidden until it is restored; with `shareKey` (an active key of the site, else 404) the published URLs open with that key.",
      tags,
      summary:
        'List the site spaces of a site in reading order (those of a deleted space are hidden until it is restored)',
      params: siteParams,
      query: listSiteSpacesQuery,
      responses: { 200: { description: 'site spaces', schema: listSchema(siteSpaceSchema) } },
    },
    async ({ params, query, caller, access }) => {
      const { site } = await viewableSite(access, params.organizationId, params.siteId);
      const { structure, spaces } = await structureFor(access, site, urls);
      const ordered = structure.siteSpaces
        .map((placed, index) => ({ placed, index }))
        .filter((s) => query.default === undefined || s.placed.isDefault === query.default);
      const page = pageInMemory(
        ordered,
        { key: (s) => [s.index, s.placed.row.id], arity: 2 },
        { limit: query.limit, page: query.page, scope: `site-spaces:${site.id}:${query.default}:${caller.userId}` },
        config.cursorSecret,
      );
      const body = presentList(
        page,
        page.items.map((s) => presentPlaced(site, structure, s.placed, spaces)),
      );
      return { status: 200, body: await withSiteShareKey(access.db, site, query.shareKey, body, urls) };
    },
  );

  api.op(
    {
      method: 'post',
      path: base,
      operationId: 'addSpaceToSite',
      description:
        "Shows a space on the site: a new site space, last in section `sectionId`, else in the default section, else at the root level of a site without sections; its path comes from the space's title. Needs `admin` on the site (the organization's admins); the space must be a live space of the organization the caller can view (else 400) and not already at that level (409); `spaceId: null` creates a new blank private space at the organization root.",
      tags,
      summary:
        'Add a space to a site, last in `sectionId`, else in the default section, else at the root level of a site without sections; `spaceId: null` creates a new blank space',
      params: siteParams,
      body: addSiteSpaceBody,
      responses: { 201: { description: 'created', schema: siteSpaceSchema } },
    },
    async ({ params, body, caller, access }) => {
      const { site, row } = await writeSite(api.deps, caller, params, async (w) => {
        const space = await spaceOrNew(w, body.spaceId, w.site.title, {
          createdById: caller.userId,
          appBaseUrl: config.appBaseUrl,
        });
        return { site: w.site, row: await addSiteSpace(w.db, w.site, space, body.sectionId) };
      });
      const answer = await present(access, site, row.id);
      return {
        status: 201,
        headers: { Location: urls.api(`/orgs/${site.organizationId}/sites/${site.id}/site-spaces/${row.id}`) },
        body: answer,
      };
    },
  );

  api.op(
    {
      method: 'patch',
      path: `${base}/{siteSpaceId}`,
      operationId: 'updateSiteSpaceById',
      description:
        "Changes a site space: its path (409 when a sibling has it), its condition (null removes it; it must fit the site's adaptive schema, else 400), or the space it shows (a live space of the organization, not already at that level). Needs `admin` on the site (the organization's admins).",
      tags,
      summary: 'Update a site space: path (409 when a sibling has it), condition, the space it shows',
      params: siteSpaceParams,
      body: patchSiteSpaceBody,
      responses: { 200: { description: 'site space', schema: siteSpaceSchema } },
    },
    async ({ params, body, caller, access }) => {
      const site = await writeSite(api.deps, caller, params, async ({ db, site, organization, access: writer }) => {
        // one of a deleted space is hidden, here too
        const row = findSiteSpace(await loadStructure(db, site), params.siteSpaceId)?.row;
        if (!row) throw notFound('site space');
        const space =
          body.spaceId === undefined ? undefined : await spaceForSite(writer, organization, body.spaceId, 'spaceId');
        await updateSiteSpace(db, site, row, { path: body.path, condition: body.condition, space });
        return site;
      });
      const answer = await present(access, site, params.siteSpaceId);
      return { status: 200, body: answer };
    },
  );

  api.op(
    {
      method: 'delete',
      path: `${base}/{siteSpaceId}`,
      operationId: 'deleteSiteSpaceById',
      description:
        "Removes a site space (the space itself stays); when it was a default, the next site space of its level (else the previous) takes over, and a section left without site spaces is deleted too. Needs `admin` on the site (the organization's admins); 204 also when there is no such site space.",
      tags,
      summary:
        'Remove a space from a site (the next site space becomes the default if it was; a section left empty is deleted)',
      params: siteSpaceParams,
      responses: { 204: { description: 'deleted, or there was no such site space' } },
    },
    async ({ params, caller }) => {
      await deleteInSite(api.deps, caller, params, async ({ db, site }) => {
        const row = await db.findOneBy(SiteSpace, { id: params.siteSpaceId, siteId: site.id });
        if (row) await deleteSiteSpace(db, site, row);
      });
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post',
      path: `${base}/{siteSpaceId}/move`,
      operationId: 'moveSiteSpace',
      description:
        "Deprecated form of `sortSiteStructure` for a site space: places it right before or after a sibling at its level, or last without `position`. Needs `admin` on the site (the organization's admins).",
      tags,
      deprecated: true,
      summary: 'Deprecated: use PATCH …/structure/sort. Moves the site space before or after a sibling, or last',
      params: siteSpaceParams,
      body: moveSiteSpaceBody,
      responses: { 200: { description: 'site space', schema: siteSpaceSchema } },
    },
    async ({ params, body, caller, access }) => {
      const site = await sortInSite(
        api.deps,
        caller,
        params,
        { type: 'site-space', id: params.siteSpaceId },
        body.position,
      );
      return { status: 200, body: await present(access, site, params.siteSpaceId) };
    },
  );
}
