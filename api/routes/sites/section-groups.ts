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
