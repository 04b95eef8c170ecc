/** The spaces one member of an organization can access, each with that member's effective role. */
import { z } from 'zod';
import { authorize, spaceRole, viewableContent } from '../../../domain/access/authorize';
import { AccessContext } from '../../../domain/access/context';
import { findMember } from '../../../domain/members/members';
import { counterSelects, countersOfSpaces, publishedLocationsOfRows } from '../../../domain/spaces/counters';
import { spacesOfOrganizationStatement } from '../../../domain/spaces/queries';
import { loadOrganization } from '../../loaders';
import { paginateStatement } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList, roleSchema } from '../../presenters/common';
import { spaceSchema } from '../../presenters/space';
import { Urls } from '../../presenters/urls';
import { presentSpacesFor } from './present';
import { memberSpacesParams, memberSpacesQuery } from './schema';

const memberSpaceSchema = z
  .object({
    permission: roleSchema.openapi({ description: "the member's effective role on the space" }),
    space: spaceSchema,
  })
  .openapi('MemberSpace', { description: 'A space a member can access, with their effective role on it.' });

export function memberSpacesRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const urls = new Urls(config);

  api.op(
    {
      method: 'get',
      path: '/v1/orgs/{organizationId}/members/{userId}/spaces',
      operationId: 'listMemberSpaces',
      description:
        'Lists the spaces of the organization a member can view, with the role they hold on each, by creation time (newest first by default). Needs `listMembers`: any member with an organization role (not a guest).',
      tags: ['members'],
      summary: "List the spaces a member can access, with the member's effective role on each",
      params: memberSpacesParams,
      query: memberSpacesQuery,
      responses: { 200: { description: 'spaces of the member', schema: listSchema(memberSpaceSchema) } },
    },
    async ({ params, query, access }) => {
      const org = await loadOrganization(access, params.organizationId);
      await authorize(access, { kind: 'organization', organization: org }, 'listMembers');
      const member = await findMember(ds.manager, org.id, params.userId);
      const memberAccess = new AccessContext(ds.manager, member.userId);
      const order = query.order ?? 'desc';
      const direction = order === 'asc' ? 'ASC' : 'DESC';
      const page = await paginateStatement(
        {
          ...spacesOfOrganizationStatement(ds.manager, org.id, await viewableContent(memberAccess, org.id)),
          selects: counterSelects('s'),
        },
        [
          { column: 's.createdAt', direction, value: (s) => s.createdAt },
          { column: 's.id', direction, value: (s) => s.id },
        ],
        { limit: query.limit, page: query.page, scope: `memberSpaces:${org.id}:${member.userId}:${order}` },
        config.cursorSecret,
      );
      const published = await publishedLocationsOfRows(ds.manager, 's', page.rows);
      const spaces = await presentSpacesFor(access, page.items, urls, countersOfSpaces(page.items, published));
      const items = [];
      for (const [i, space] of page.items.entries()) {
        // viewableContent selected only spaces the member can view, so a role exists.
        items.push({ permission: (await spaceRole(memberAccess, space))!, space: spaces[i] });
      }
      return { status: 200, body: presentList(page, items) };
    },
  );
}
