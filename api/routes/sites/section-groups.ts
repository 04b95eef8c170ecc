/** Section groups of a site: list, add (201), update, delete, their sections (add 201, remove 204), and the deprecated move. */
import type { AccessContext } from '../../../domain/access/context';
import { badRequest, notFound } from '../../../domain/errors';
import {
  addSectionGroup,
  deleteSectionGroup,
  removeSectionFromGroup,
  updateSectionGroup,
} from '../../../domain/sites/section-groups';
import { moveSection } from '../../../domain/sites/sections';
import { findGroup } from '../../../domain/sites/structure';
import type { Site } from '../../../entities/Site';
import { SiteSection } from '../../../entities/SiteSection';
import { SiteSectionGroup } from '../../../entities/SiteSectionGroup';
import type { Db } from '../../../platform/db/transactions';
import { pageInMemory } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import { presentSiteSectionGroup, siteSectionGroupSchema } from '../../presenters/site-section-group';
import { Urls } from '../../presenters/urls';
import { deleteInSite, sortInSite, viewableSite, writeSite } from './access';
import { stillShown, structureFor } from './present';
import {
  addSectionGroupBody,
  addSectionToGroupBody,
  groupMemberParams,
  listSectionGroupsQuery,
  moveSectionGroupBody,
  patchSectionGroupBody,
  sectionGroupParams,
  siteParams,
} from './schema';

async function groupOf(db: Db, site: Site, groupId: string): Promise<SiteSectionGroup> {
  const group = await db.findOneBy(SiteSectionGroup, { id: groupId, siteId: site.id });
  if (!group) throw notFound('site section group');
  return group;
}

export function sectionGroupRoutes(api: ApiBuilder): void {
  const { config } = api.deps;
  const urls = new Urls(config);
  const tags = ['sites'];
  const base = '/v1/orgs/{organizationId}/sites/{siteId}/section-groups';

  async function present(access: AccessContext, site: Site, groupId: string) {
    const { structure, spaces } = await structureFor(access, site, urls);
    return presentSiteSectionGroup(site, stillShown(findGroup(structure, groupId), 'site section group'), spaces, urls);
  }

  api.op(
    {
      method: 'get',
      path: base,
      operationId: 'listSiteSectionGroups',
      description:
        "Lists the site's section groups in their order at the root level, each with its sections and their site spaces, paginated with `next.page`. Any full member of the organization may call it (an integration token: a site its installation covers); others get 404.",
      tags,
      summary: 'List the section groups of a site in order, each with its sections',
      params: siteParams,
      query: listSectionGroupsQuery,
      responses: { 200: { description: 'section groups', schema: listSchema(siteSectionGroupSchema) } },
    },
    async ({ params, query, caller, access }) => {
      const { site } = await viewableSite(access, params.organizationId, params.siteId);
      const { structure, spaces } = await structureFor(access, site, urls);
      const ordered = structure.root
        .flatMap((item) => (item.kind === 'group' ? [item.group] : []))
        .map((group, index) => ({ group, index }));
      const page = pageInMemory(
        ordered,
        { key: (g) => [g.index, g.group.row.id], arity: 2 },
        { limit: query.limit, page: query.page, scope: `site-section-groups:${site.id}:${caller.userId}` },
        config.cursorSecret,
      );
      return {
        status: 200,
        body: presentList(
          page,
          page.items.map((g) => presentSiteSectionGroup(site, g.group, spaces, urls)),
        ),
      };
    },
  );

  api.op(
    {
      method: 'post',
      path: base,
      operationId: 'addSectionGroupToSite',
      description:
        "Adds a section group, last at the root level; the sections named in `sections` move into it in that order. Needs `admin` on the site (the organization's admins); a section that is not the site's is a 400.",
      tags,
      summary: 'Add a section group, last at the root level; the sections named in `sections` move into it',
      params: siteParams,
      body: addSectionGroupBody,
      responses: { 201: { description: 'created', schema: siteSectionGroupSchema } },
    },
    async ({ params, body, caller, access }) => {
      const { site, group } = await writeSite(api.deps, caller, params, async ({ db, site }) => ({
        site,
        group: await addSectionGroup(db, site, body),
      }));
      const answer = await present(access, site, group.id);
      return {
        status: 201,
        headers: { Location: urls.api(`/orgs/${site.organizationId}/sites/${site.id}/section-groups/${group.id}`) },
        body: answer,
      };
    },
  );

  api.op(
    {
      method: 'patch',
      path: `${base}/{siteSectionGroupId}`,
      operationId: 'updateSiteSectionGroupById',
      description:
        "Renames a section group or changes its icon (null removes it). Needs `admin` on the site (the organization's admins).",
      tags,
      summary: 'Update a section group: title, icon',
      params: sectionGroupParams,
      body: patchSectionGroupBody,
      responses: { 200: { description: 'section group', schema: siteSectionGroupSchema } },
    },
    async ({ params, body, caller, access }) => {
      const site = await writeSite(api.deps, caller, params, async ({ db, site }) => {
        await updateSectionGroup(db, await groupOf(db, site, params.siteSectionGroupId), body);
        return site;
      });
      return { status: 200, body: await present(access, site, params.siteSectionGroupId) };
    },
  );

  api.op(
    {
      method: 'delete',
      path: `${base}/{siteSectionGroupId}`,
      operationId: 'deleteSiteSectionGroupById',
      description:
        "Deletes a section group; its sections stay, at the root level where the group stood. Needs `admin` on the site (the organization's admins); 204 also when there is no such group.",
      tags,
      summary: 'Delete a section group; its sections stay, at the root level where the group was',
      params: sectionGroupParams,
      responses: { 204: { description: 'deleted, or there was no such group' } },
    },
    async ({ params, caller }) => {
      await deleteInSite(api.deps, caller, params, async ({ db, site }) => {
        const group = await db.findOneBy(SiteSectionGroup, { id: params.siteSectionGroupId, siteId: site.id });
        if (group) await deleteSectionGroup(db, site, group);
      });
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post',
      path: `${base}/{siteSectionGroupId}/sections`,
      operationId: 'addSectionToGroup',
      description:
        "Moves a section of the site into the group, last (one already in the group keeps its place), and answers the group. Needs `admin` on the site (the organization's admins); a section that is not the site's is a 400.",
      tags,
      summary: 'Move a section of the site into the group, last (a section already in it stays where it is)',
      params: sectionGroupParams,
      body: addSectionToGroupBody,
      responses: { 201: { description: 'the group with the section', schema: siteSectionGroupSchema } },
    },
    async ({ params, body, caller, access }) => {
      const site = await writeSite(api.deps, caller, params, async ({ db, site }) => {
        const group = await groupOf(db, site, params.siteSectionGroupId);
        const section = await db.findOneBy(SiteSection, { id: body.sectionId, siteId: site.id });
        if (!section) throw badRequest('sectionId: no such section in this site');
        await moveSection(db, site, section, group.id);
        return site;
      });
      const answer = await present(access, site, params.siteSectionGroupId);
      return {
        status: 201,
        headers: {
          Location: urls.api(
            `/orgs/${site.organizationId}/sites/${site.id}/section-groups/${params.siteSectionGroupId}`,
          ),
        },
        body: answer,
      };
    },
  );

  api.op(
    {
      method: 'delete',
      path: `${base}/{siteSectionGroupId}/sections/{siteSectionId}`,
      operationId: 'removeSectionFromGroup',
      description:
        "Takes a section out of the group and places it last at the root level. Needs `admin` on the site (the organization's admins); 204 also when the section or the group is not there.",
      tags,
      summary: 'Take a section out of the group, last at the root level (204 also when it was not in the group)',
      params: groupMemberParams,
      responses: { 204: { description: 'removed, or it was not in the group' } },
    },
    async ({ params, caller }) => {
      await deleteInSite(api.deps, caller, params, async ({ db, site }) => {
        const group = await db.findOneBy(SiteSectionGroup, { id: params.siteSectionGroupId, siteId: site.id });
        const section = await db.findOneBy(SiteSection, { id: params.siteSectionId, siteId: site.id });
        if (group && section) await removeSectionFromGroup(db, site, group, section);
      });
      return { status: 204 };
    },
  );

  api.op(
    {
      method: 'post',
      path: `${base}/{siteSectionGroupId}/move`,
      operationId: 'moveSiteSectionGroup',
      description:
        "Deprecated form of `sortSiteStructure` for a section group: places it right before or after a section or group of the root level, or last without `position`. Needs `admin` on the site (the organization's admins).",
      tags,
      deprecated: true,
      summary:
        'Deprecated: use PATCH …/structure/sort. Moves the group before or after a sibling at the root level, or last',
      params: sectionGroupParams,
      body: moveSectionGroupBody,
      responses: { 200: { description: 'section group', schema: siteSectionGroupSchema } },
    },
    async ({ params, body, caller, access }) => {
      const site = await sortInSite(
        api.deps,
        caller,
        params,
        { type: 'site-section-group', id: params.siteSectionGroupId },
        body.position,
      );
      return { status: 200, body: await present(access, site, params.siteSectionGroupId) };
    },
  );
}
