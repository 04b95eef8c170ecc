/** Sections of a site: list, add (201), update (GitBook's `siteSectionGroupId` moves it), delete, and the deprecated move. */

import type { AccessContext } from '../../../domain/access/context';
import { notFound } from '../../../domain/errors';
import { deleteSection } from '../../../domain/sites/removal';
import { addSection, moveSection, updateSection } from '../../../domain/sites/sections';
import { findSection } from '../../../domain/sites/structure';
import type { Site } from '../../../entities/Site';
import { SiteSection } from '../../../entities/SiteSection';
import { pageInMemory } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { presentSiteSection, siteSectionSchema } from '../../presenters/site-section';
import { Urls } from '../../presenters/urls';
import { deleteInSite, sortInSite, spaceOrNew, viewableSite, writeSite } from './access';
import { stillShown, structureFor } from './present';
import {
  addSectionBody,
  listSectionsQuery,
  moveSectionBody,
  patchSectionBody,
  sectionParams,
  siteParams,
} from './schema';
import { withSiteShareKey } from './share-key';

export function sectionRoutes(api: ApiBuilder): void {
  const { config } = api.deps;
  const urls = new Urls(config);
  const tags = ['sites'];
  const base = '/v1/orgs/{organizationId}/sites/{siteId}/sections';

  /** The section as the caller sees it now, in the site's structure. */
  async function present(access: AccessContext, site: Site, sectionId: string) {
    const { structure, spaces } = await structureFor(access, site, urls);
    return presentSiteSection(site, stillShown(findSection(structure, sectionId), 'site section'), spaces, urls);
  }

  api.op(
    {
      method: 'get',
      path: base,
      operationId: 'listSiteSections',
      description:
        "Lists the site's sections in reading order (a group's sections where the group stands), each with its site spaces, paginated with `next.page`. Any full member of the organization may call it (an integration token: a site its installation covers); others get 404. A section whose spaces are all deleted is listed with `siteSpaces: []`; with `shareKey` (an active key of the site, else 404) the published URLs open with that key.",
      tags,
      summary:
        "List the sections of a site in reading order (a group's sections where the group is), each with its site spaces",
      params: siteParams,
      query: listSectionsQuery,
      responses: { 200: { description: 'sections', schema: listSchema(siteSectionSchema) } },
    },
    async ({ params, query, caller, access }) => {
      const { site } = await viewableSite(access, params.organizationId, params.siteId);
      const { structure, spaces } = await structureFor(access, site, urls);
      const ordered = structure.sections.map((section, index) => ({ section, index }));
      const page = pageInMemory(
        ordered,
        { key: (s) => [s.index, s.section.row.id], arity: 2 },
        { limit: query.limit, page: query.page, scope: `site-sections:${site.id}:${caller.userId}` },
        config.cursorSecret,
      );
      const body = presentList(
        page,
        page.items.map((s) => presentSiteSection(site, s.section, spaces, urls)),
      );
      return { status: 200, body: await withSiteShareKey(access.db, site, query.shareKey, body, urls) };
    },
  );

  api.op(
    {
      method: 'post',
      path: base,
      operationId: 'addSectionToSite',
      description:
        "Adds a section, last at the root level or last in the group `siteSectionGroupId`, whose first and default site space shows the given space; its path comes from its title. Needs `admin` on the site (the organization's admins); the space must be a live space of the organization the caller can view (else 400), and `spaceId: null` creates a new blank private space at the organization root. The first section of a site with site spaces at its root level takes them into a section titled after the site, which becomes the default.",
      tags,
      summary:
        'Add a section, last at the root level (or in `siteSectionGroupId`), with the space as its first site space; `spaceId: null` creates a new blank space',
      params: siteParams,
      body: addSectionBody,
      responses: { 201: { description: 'created', schema: siteSectionSchema } },
    },
    async ({ params, body, caller, access }) => {
      const { site, section } = await writeSite(api.deps, caller, params, async (w) => {
        const { db, site } = w;
        const space = await spaceOrNew(w, body.spaceId, body.title ?? site.title, {
          createdById: caller.userId,
          appBaseUrl: config.appBaseUrl,
        });
        const section = await addSection(db, site, space, body);
        if (body.siteSectionGroupId !== undefined) await moveSection(db, site, section, body.siteSectionGroupId);
        return { site, section };
      });
      const answer = await present(access, site, section.id);
      return {
        status: 201,
        headers: { Location: urls.api(`/orgs/${site.organizationId}/sites/${site.id}/sections/${section.id}`) },
        body: answer,
      };
    },
  );

  api.op(
    {
      method: 'patch',
      path: `${base}/{siteSectionId}`,
      operationId: 'updateSiteSectionById',
      description:
        "Changes a section: fields left out stay, and null removes `condition`, `icon` or `description`. Needs `admin` on the site (the organization's admins). A path another section of the site has is a 409, `defaultSiteSpace` must be one of the section's site spaces, a condition must fit the site's adaptive schema (else 400), and `siteSectionGroupId` moves the section last into that group (null: last at the root level).",
      tags,
      summary:
        'Update a section: title, path (409 when another section has it), default site space, condition, icon, description, group',
      params: sectionParams,
      body: patchSectionBody,
      responses: { 200: { description: 'section', schema: siteSectionSchema } },
    },
    async ({ params, body, caller, access }) => {
      const site = await writeSite(api.deps, caller, params, async ({ db, site }) => {
        const section = await db.findOneBy(SiteSection, { id: params.siteSectionId, siteId: site.id });
        if (!section) throw notFound('site section');
        await updateSection(db, site, section, body);
        return site;
      });
      return { status: 200, body: await present(access, site, params.siteSectionId) };
    },
  );

  api.op(
    {
      method: 'delete',
      path: `${base}/{siteSectionId}`,
      operationId: 'deleteSiteSectionById',
      description:
        "Deletes a section and its site spaces (the spaces themselves stay); when it was the default section, the next one (else the previous) takes over. Needs `admin` on the site (the organization's admins); 204 also when there is no such section.",
      tags,
      summary: 'Delete a section and its site spaces (the next section becomes the default if it was)',
      params: sectionParams,
      responses: { 204: { description: 'deleted, or there was no such section' } },
    },
    async ({ params, caller }) => {
      await deleteInSite(api.deps, caller, params, async ({ db, site }) => {
        const section = await db.findOneBy(SiteSection, { id: params.siteSectionId, siteId: site.id });
        if (section) await deleteSection(db, site, section);
      });
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post',
      path: `${base}/{siteSectionId}/move`,
      operationId: 'moveSiteSection',
      description:
        "Deprecated form of `sortSiteStructure` for a section: places it right before or after a sibling at its level, or last without `position`. Needs `admin` on the site (the organization's admins); a sibling from another level is a 400.",
      tags,
      deprecated: true,
      summary: 'Deprecated: use PATCH …/structure/sort. Moves the section before or after a sibling, or last',
      params: sectionParams,
      body: moveSectionBody,
      responses: { 200: { description: 'section', schema: siteSectionSchema } },
    },
    async ({ params, body, caller, access }) => {
      const site = await sortInSite(
        api.deps,
        caller,
        params,
        { type: 'site-section', id: params.siteSectionId },
        body.position,
      );
      return { status: 200, body: await present(access, site, params.siteSectionId) };
    },
  );
}
