/**
 * Links and backlinks: a space's links (from its link index), a page's links in either content
 * form, and the backlinks of a page or a file in either content form.
 */
import { ObjectStore } from '../../../domain/content/objects';
import { ContentReader } from '../../../domain/content/reader';
import { loadRevision } from '../../../domain/content/revisions';
import {
  assertTargetExists,
  BacklinkTarget,
  changeRequestBacklinkSources,
  spaceBacklinksQuery,
} from '../../../domain/links/backlinks';
import {
  changeRequestLinks,
  compareLinkItems,
  unchangedIndexedLinks,
} from '../../../domain/links/change-request-links';
import {
  brokenLinksIntroduced,
  LinkItem,
  linkItemsOfRows,
  linkStatsOf,
  pageLinks,
  spaceLinkStats,
  spaceLinksQuery,
} from '../../../domain/links/links';
import type { SpaceLink } from '../../../entities/SpaceLink';
import { DEFAULT_LIMIT, encodeCursor, Page, pageInMemory, paginate, SortKey } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import {
  LinkContext,
  linkListSchema,
  pageReferenceSchema,
  presentLinkList,
  presentPageReference,
} from '../../presenters/link';
import { changeRequestIdParams } from '../change-requests/schema';
import { fileIdParams, pageIdParams } from '../content/schema';
import { CONTENT_FORMS, ContentForm, ContentTarget, openContent } from '../content/target';
import { spaceIdParams } from '../spaces/schema';
import { listBacklinksQuery, listLinksQuery } from './schema';

export function linkRoutes(api: ApiBuilder): void {
  const { ds, config } = api.deps;
  const spaceForm = CONTENT_FORMS.find((f) => f.name === 'Space')!;
  const changeRequestForm = CONTENT_FORMS.find((f) => f.name === 'ChangeRequest')!;
  /** The index's order, which every list of links follows. */
  const indexOrder: SortKey<SpaceLink>[] = [
    { column: 'l.sourcePageId', direction: 'ASC', value: (l) => l.sourcePageId },
    { column: 'l.ordinal', direction: 'ASC', value: (l) => l.ordinal },
  ];

  const contextOf = (target: ContentTarget, revisionId: string): LinkContext => ({
    organizationId: target.space.organizationId,
    spaceId: target.space.id,
    revisionId,
  });

  /** The space's current revision, beside a change request's (which exists only once the space has a revision). */
  async function spaceHeadReader(target: ContentTarget, store: ObjectStore): Promise<ContentReader> {
    return new ContentReader(store, (await loadRevision(ds.manager, target.space.revisionId!)).root);
  }

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/links',
      operationId: 'listSpaceLinks',
      description:
        "Lists the links written in the pages of the space's current revision, paginated, by source page then position, each with its target and status (`ok`, `broken`, `in-app`); `status` filters them, `stats` counts them all. Read from the space's link index, which every commit to the space keeps current. Needs read access to the space. Changes nothing.",
      tags: ['links'],
      summary: "List the links of every page of the space's current revision, by source page then position",
      params: spaceIdParams,
      query: listLinksQuery,
      responses: { 200: { description: 'links', schema: linkListSchema } },
    },
    async ({ params, query, access }) => {
      const target = await spaceForm.resolve(access, params, 'view');
      const { revision, reader } = await openContent(ds, target);
      const page = await paginate(
        spaceLinksQuery(ds.manager, target.space.id, query.status),
        indexOrder,
        { limit: query.limit, page: query.page, scope: `links:${target.space.id}:${query.status ?? ''}` },
        config.cursorSecret,
      );
      const stats = await spaceLinkStats(ds.manager, target.space.id);
      const items = await linkItemsOfRows(reader, page.items);
      return {
        status: 200,
        body: presentLinkList(
          { ...page, items },
          { ...stats, introducedByChangeRequest: 0 },
          contextOf(target, revision.id),
        ),
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/links',
      operationId: 'listChangeRequestLinks',
      description:
        "Lists the links written in the pages of the change request's current revision, paginated, by source page then position, each with its target and its status in that revision (`ok`, `broken`, `in-app`); `status` filters them, `stats` counts them all, and `stats.broken.changeRequest` the broken links the change request introduces compared with the space. The space's link index answers for what the change request shares with the space; only the pages it changed, and the links whose target it added, removed or moved, are decided again, so the cost follows the change. Needs read access to the space. Changes nothing.",
      tags: ['links'],
      extension: true,
      summary: "List the links of every page of the change request's current revision, by source page then position",
      params: changeRequestIdParams,
      query: listLinksQuery,
      responses: { 200: { description: 'links', schema: linkListSchema } },
    },
    async ({ params, query, access }) => {
      const target = await changeRequestForm.resolve(access, params, 'view');
      const { revision, reader } = await openContent(ds, target);
      const spaceId = target.space.id;
      const linkContext = { appBaseUrl: config.appBaseUrl, organizationId: target.space.organizationId };
      const delta = await changeRequestLinks(
        ds.manager,
        spaceId,
        await spaceHeadReader(target, reader.store),
        reader,
        linkContext,
      );
      // two sorted sources, one cursor: each gives its first `limit` after it, the merge keeps the first `limit`
      const request = {
        limit: query.limit,
        page: query.page,
        scope: `change-request-links:${target.changeRequest!.id}:${query.status ?? ''}`,
      };
      const [indexed, stats] = await Promise.all([
        paginate(
          unchangedIndexedLinks(ds.manager, spaceId, delta, query.status),
          indexOrder,
          request,
          config.cursorSecret,
        ),
        linkStatsOf(unchangedIndexedLinks(ds.manager, spaceId, delta)),
      ]);
      const recomputed = pageInMemory(
        query.status ? delta.recomputed.filter((l) => l.status === query.status) : delta.recomputed,
        { key: (l) => [l.sourcePageId, l.ordinal], arity: 2 },
        request,
        config.cursorSecret,
      );
      const limit = query.limit ?? DEFAULT_LIMIT;
      const merged = [...(await linkItemsOfRows(reader, indexed.items)), ...recomputed.items].sort(compareLinkItems);
      const items = merged.slice(0, limit);
      const last = items[items.length - 1];
      const more = !!indexed.next || !!recomputed.next || merged.length > limit;
      const page: Page<LinkItem> = {
        items,
        count: indexed.count + recomputed.count,
        ...(more && last
          ? { next: { page: encodeCursor(config.cursorSecret, request.scope, [last.sourcePageId, last.ordinal]) } }
          : {}),
      };
      const broken = delta.recomputed.filter((l) => l.status === 'broken').length;
      return {
        status: 200,
        body: presentLinkList(
          page,
          {
            total: stats.total + delta.recomputed.length,
            broken: stats.broken + broken,
            introducedByChangeRequest: delta.introducedBroken,
          },
          contextOf(target, revision.id),
        ),
      };
    },
  );

  for (const form of CONTENT_FORMS) {
    api.op(
      {
        method: 'get',
        path: form.path('/page/{pageId}/links'),
        operationId: `list${form.name}PageLinks`,
        description:
          "Lists the links written in one page of the content's head revision, in document order, each with its status in that revision, paginated; on a change request `stats.broken.changeRequest` counts the broken links it introduces compared with the space. Needs read access to the space; 404 when the page is not in the content. Changes nothing.",
        tags: ['links'],
        summary: 'List the links of a page in the revision, in document order, with their status there',
        params: { ...form.params, ...pageIdParams },
        query: listLinksQuery,
        responses: { 200: { description: 'links', schema: linkListSchema } },
      },
      async ({ params, query, access }) => {
        const target = await form.resolve(access, params, 'view');
        const { revision, reader } = await openContent(ds, target);
        const linkContext = { appBaseUrl: config.appBaseUrl, organizationId: target.space.organizationId };
        const links = await pageLinks(ds.manager, reader, params.pageId, linkContext);
        const broken = links.filter((l) => l.status === 'broken').length;
        const introducedByChangeRequest = target.changeRequest
          ? await brokenLinksIntroduced(
              ds.manager,
              await spaceHeadReader(target, reader.store),
              params.pageId,
              links,
              linkContext,
            )
          : 0;
        const page = pageInMemory(
          query.status ? links.filter((l) => l.status === query.status) : links,
          { key: (l) => [l.ordinal], arity: 1 },
          {
            limit: query.limit,
            page: query.page,
            scope: `page-links:${target.space.id}:${target.changeRequest?.id ?? ''}:${params.pageId}:${query.status ?? ''}`,
          },
          config.cursorSecret,
        );
        return {
          status: 200,
          body: presentLinkList(
            page,
            { total: links.length, broken, introducedByChangeRequest },
            contextOf(target, revision.id),
          ),
        };
      },
    );

    backlinksOperation(form, 'page');
    backlinksOperation(form, 'file');
  }

  function backlinksOperation(form: ContentForm, kind: BacklinkTarget['kind']): void {
    const Kind = kind === 'page' ? 'Page' : 'File';
    api.op(
      {
        method: 'get',
        path: form.path(kind === 'page' ? '/page/{pageId}/backlinks' : '/files/{fileId}/backlinks'),
        operationId: `list${form.name}${Kind}Backlinks`,
        description: `Lists the pages of the content's head revision that link to the ${kind}, by page id, paginated, as page references. Needs read access to the space; 404 when the ${kind} is not in the content. Changes nothing.`,
        tags: ['links'],
        summary: `List the pages of the revision that link to the ${kind}, by page id`,
        params: { ...form.params, ...(kind === 'page' ? pageIdParams : fileIdParams) },
        query: listBacklinksQuery,
        responses: { 200: { description: 'references of the linking pages', schema: listSchema(pageReferenceSchema) } },
      },
      async ({ params, query, access }) => {
        const p = params as Record<string, string>;
        const backlinkTarget: BacklinkTarget = { kind, id: kind === 'page' ? p.pageId : p.fileId };
        const target = await form.resolve(access, p, 'view');
        const { revision, reader } = await openContent(ds, target);
        await assertTargetExists(reader, backlinkTarget);
        const ctx = contextOf(target, revision.id);
        const scope = `backlinks:${target.space.id}:${target.changeRequest?.id ?? ''}:${kind}:${backlinkTarget.id}`;
        const request = { limit: query.limit, page: query.page, scope };
        const page = target.changeRequest
          ? pageInMemory(
              await changeRequestBacklinkSources(
                ds.manager,
                target.space.id,
                await spaceHeadReader(target, reader.store),
                reader,
                backlinkTarget,
              ),
              { key: (id) => [id], arity: 1 },
              request,
              config.cursorSecret,
            )
          : await paginate(
              spaceBacklinksQuery(ds.manager, target.space.id, backlinkTarget),
              // binary order: ids are case-sensitive, and the change request form sorts them the same way in memory
              [{ column: 'l.sourcePageId COLLATE utf8mb4_bin', direction: 'ASC', value: (l) => l.sourcePageId }],
              request,
              config.cursorSecret,
            ).then((rows) => ({ ...rows, items: rows.items.map((l) => l.sourcePageId) }));
        return {
          status: 200,
          body: presentList(
            page,
            page.items.map((id) => presentPageReference(id, ctx)),
          ),
        };
      },
    );
  }
}
