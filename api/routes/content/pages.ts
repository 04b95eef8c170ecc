/**
 * Writing pages (extensions): create, edit or move, delete. Each write is one `edits` revision on
 * the target's head: the space (editMode live) or the change request (not merged or archived).
 */

import type { Request } from 'express';
import type { LockedHead } from '../../../domain/content/heads';
import { ObjectStore } from '../../../domain/content/objects';
import { ContentReader } from '../../../domain/content/reader';
import type { Revision } from '../../../entities/Revision';
import { type Db, inTransaction } from '../../../platform/db/transactions';
import { hasIfMatch, requireMatch } from '../../middleware/conditional';
import type { ApiBuilder } from '../../operation';
import { pageSchema } from '../../presenters/page';
import { Urls } from '../../presenters/urls';
import { pageTag, presentPageWithChildren } from './present';
import { createPageBody, pageIdParams, patchPageBody } from './schema';
import { CONTENT_FORMS, CONTENT_WRITE_EFFECTS, ContentTarget, commitEdits } from './target';

export function contentPageRoutes(api: ApiBuilder): void {
  const { config } = api.deps;
  const urls = new Urls(config);

  /** The page as it is in `revision`, with its markdown. */
  async function presentWritten(db: Db, revision: Revision, pageId: string, target: ContentTarget) {
    const reader = new ContentReader(new ObjectStore(db), revision.root);
    const page = (await reader.page(pageId))!;
    return presentPageWithChildren(reader, page, { markdown: page.version.markdown }, target, urls);
  }

  /**
   * `If-Match` of a page write, checked against the page in the head's revision while the commit holds the head's
   * lock: of two editors holding one ETag, the second finds the first's revision and gets 412. A gone page: 412.
   */
  async function matchPage(req: Request, db: Db, locked: LockedHead, target: ContentTarget, pageId: string) {
    if (!hasIfMatch(req)) return;
    const reader = new ContentReader(new ObjectStore(db), locked.revision.root);
    const page = await reader.page(pageId);
    requireMatch(req, page ? pageTag(page, await reader.subtree(page), target) : null);
  }

  for (const form of CONTENT_FORMS) {
    api.op(
      {
        method: 'post',
        path: form.path('/pages'),
        operationId: `create${form.name}Page`,
        description: `Adds a page to the content, at the root level or under \`parent\`, at \`index\` among its siblings or last; its slug is made from the title, unique among the siblings. ${CONTENT_WRITE_EFFECTS}`,
        tags: ['content'],
        extension: true,
        summary: 'Create a page (at the root level or under `parent`, at `index` or last)',
        params: form.params,
        body: createPageBody,
        responses: { 201: { description: 'created', schema: pageSchema } },
      },
      async ({ params, body, caller, access }) => {
        const target = await form.resolve(access, params, 'edit');
        const { parent, index, ...fields } = body;
        const page = await inTransaction(api.deps, async (db) => {
          const { revision, result: id } = await commitEdits(db, target, caller.userId, config.appBaseUrl, (editor) =>
            editor.createPage(fields, { parent, index }),
          );
          return presentWritten(db, revision, id, target);
        });
        return { status: 201, headers: { Location: urls.api(`${target.apiPath}/page/${page.id}`) }, body: page };
      },
    );

    api.op(
      {
        method: 'patch',
        path: form.path('/page/{pageId}'),
        operationId: `update${form.name}Page`,
        description: `Changes a page's title, markdown, emoji, description or hidden flag; \`parent\` and/or \`index\` move it with its subtree (before the other changes). ${CONTENT_WRITE_EFFECTS} An edit that changes nothing commits nothing.`,
        tags: ['content'],
        extension: true,
        summary: 'Edit a page; `parent` and/or `index` move it (with its subtree)',
        params: { ...form.params, ...pageIdParams },
        body: patchPageBody,
        responses: {
          200: { description: 'page', schema: pageSchema },
          412: { description: 'the `If-Match` ETag is not the current one, or the page is gone (extension)' },
        },
      },
      async ({ params, body, caller, access, req }) => {
        const target = await form.resolve(access, params, 'edit');
        const { parent, index, ...fields } = body;
        const page = await inTransaction(api.deps, async (db) => {
          const { revision } = await commitEdits(
            db,
            target,
            caller.userId,
            config.appBaseUrl,
            async (editor, locked) => {
              await matchPage(req, db, locked, target, params.pageId);
              // Moved first, so a new title's slug is made unique among the new siblings.
              if (parent !== undefined || index !== undefined) await editor.movePage(params.pageId, { parent, index });
              if (Object.keys(fields).length) await editor.updatePage(params.pageId, fields);
            },
          );
          return presentWritten(db, revision, params.pageId, target);
        });
        return { status: 200, body: page };
      },
    );

    api.op(
      {
        method: 'delete',
        path: form.path('/page/{pageId}'),
        operationId: `delete${form.name}Page`,
        description: `Removes a page and every page under it from the content; earlier revisions keep them. ${CONTENT_WRITE_EFFECTS}`,
        tags: ['content'],
        extension: true,
        summary: 'Delete a page and every page under it; 404 when the page is not in the content',
        params: { ...form.params, ...pageIdParams },
        responses: {
          204: { description: 'deleted' },
          412: { description: 'the `If-Match` ETag is not the current one, or the page is gone (extension)' },
        },
      },
      async ({ params, caller, access, req }) => {
        const target = await form.resolve(access, params, 'edit');
        await inTransaction(api.deps, (db) =>
          commitEdits(db, target, caller.userId, config.appBaseUrl, async (editor, locked) => {
            await matchPage(req, db, locked, target, params.pageId);
            await editor.deletePage(params.pageId);
          }),
        );
        return { status: 204 };
      },
    );
  }
}
