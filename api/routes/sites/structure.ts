/** A site's structure: read it, and sort it (one sort operation; the deprecated moves go through the same code). */

import { z } from 'zod';
import { findGroup, findSection, findSiteSpace } from '../../../domain/sites/structure';
import type { ApiBuilder } from '../../operation';
import { presentSiteStructure, siteStructureSchema } from '../../presenters/site-published';
import { presentSiteSection, siteSectionSchema } from '../../presenters/site-section';
import { presentSiteSectionGroup, siteSectionGroupSchema } from '../../presenters/site-section-group';
import { presentSiteSpace, siteSpaceSchema } from '../../presenters/site-space';
import { Urls } from '../../presenters/urls';
import { sortInSite, viewableSite } from './access';
import { stillShown, structureFor } from './present';
import { listSectionsQuery, siteParams, sortBody } from './schema';

export function structureRoutes(api: ApiBuilder): void {
  const { config } = api.deps;
  const urls = new Urls(config);
  const tags = ['sites'];

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/sites/{siteId}/structure',
      operationId: 'getSiteStructure',
      description:
        "Returns the site's structure as its readers see it, in order: its sections and groups, or its site spaces when it has no sections; sections that show nothing and empty groups are left out. Any full member of the organization may call it (an integration token: a site its installation covers); others get 404.",
      tags,
      extension: true,
      summary: "The site's structure as readers see it, in order (GitBook's operation)",
      params: siteParams,
      query: { shareKey: listSectionsQuery.shareKey },
      responses: { 200: { description: 'structure', schema: siteStructureSchema } },
    },
    async ({ params, access }) => {
      const { site } = await viewableSite(access, params.organizationId, params.siteId);
      const { structure, spaces } = await structureFor(access, site, urls);
      return { status: 200, body: presentSiteStructure(site, structure, spaces, urls) };
    },
  );

  api.op(
    {
      method: 'patch',
      path: '/v1/orgs/{organizationId}/sites/{siteId}/structure/sort',
      operationId: 'sortSiteStructure',
      description:
        "Moves a site space, section or section group right before or after a sibling at its own level, or to the end of that level without `position`, and answers the moved item. Needs `admin` on the site (the organization's admins); the level's positions are rewritten under the site's lock. An anchor that is not a sibling, the item itself, or both `before` and `after` is a 400; an unknown item a 404.",
      tags,
      extension: true,
      summary:
        'Move a site space, section or section group right before or after a sibling at its level, or to the end of its level without `position`',
      params: siteParams,
      body: sortBody,
      responses: {
        200: {
          description: 'the moved item',
          schema: z.union([siteSpaceSchema, siteSectionSchema, siteSectionGroupSchema]),
        },
      },
    },
    async ({ params, body, caller, access }) => {
      const site = await sortInSite(api.deps, caller, params, body.item, body.position);
      const { structure, spaces } = await structureFor(access, site, urls);
      const { type, id } = body.item;
      if (type === 'site-section')
        return {
          status: 200,
          body: presentSiteSection(site, stillShown(findSection(structure, id), 'site section'), spaces, urls),
        };
      if (type === 'site-section-group')
        return {
          status: 200,
          body: presentSiteSectionGroup(site, stillShown(findGroup(structure, id), 'site section group'), spaces, urls),
        };
      const placed = stillShown(findSiteSpace(structure, id), 'site space');
      const sectionPath = placed.row.sectionId === null ? null : findSection(structure, placed.row.sectionId)!.row.path;
      return { status: 200, body: presentSiteSpace(site, placed, sectionPath, spaces.get(placed.space.id)!, urls) };
    },
  );
}
