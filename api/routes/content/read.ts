/** Reading content: the head revision with its page tree and files, the page tree alone, one page. */
import type { Request } from 'express';
import { z } from 'zod';
import type { ContentReader } from '../../../domain/content/reader';
import { notFound } from '../../../domain/errors';
import type { ApiBuilder, Reply } from '../../operation';
import { presentFile } from '../../presenters/file';
import { pageSchema, presentPageTree } from '../../presenters/page';
import { presentRevision, revisionSchema } from '../../presenters/revision';
import { Urls } from '../../presenters/urls';
import { RememberedAnswers } from '../../remembered-answers';
import { mergedFromOf, pageBody, presentTaggedPage } from './present';
import { READ_FORMS } from './revision-form';
import { contentQuery, getPageQuery, pageIdParams, pagePathParams } from './schema';
import { CONTENT_READ_ACCESS, ContentTarget, openContent, RevisionTarget } from './target';

const pageTreeSchema = z.object({
  pages: z.array(pageSchema).openapi({ description: 'the root-level pages, each with its whole subtree' }),
});

type PageQuery = z.output<z.ZodObject<typeof getPageQuery>>;

export function contentReadRoutes(api: ApiBuilder): void {
  const { ds, config, blobs } = api.deps;
  const urls = new Urls(config);
  // a page in one form, in one revision, shown at one app path (made of ids)
  const pageAnswers = new RememberedAnswers(pageSchema, 16 * 2 ** 20);
  // a revision's page tree, shown at one app path: a space's whole markdown, so fewer fit
  const treeAnswers = new RememberedAnswers(pageTreeSchema, 16 * 2 ** 20);

  for (const form of READ_FORMS) {
    api.op(
      {
        method: 'get',
        path: form.path(''),
        operationId: `get${form.name}Content`,
        description: `Reads ${form.reads.full}: every page with its markdown, every file with a download URL, and the revision variables. ${CONTENT_READ_ACCESS} Changes nothing, except that a space without any revision yet gets its empty first one.`,
        tags: ['content'],
        extension: form.extension,
        summary: `Get ${form.reads.short}: its page tree (every page with its markdown), files and variables; \`git\` is null (no Git sync)`,
        params: form.params,
        query: contentQuery,
        responses: { 200: { description: 'revision', schema: revisionSchema } },
      },
      async ({ params, access }) => {
        const target = await form.resolve(access, params, 'view');
        const { revision, reader } = await openContent(ds, target);
        const [pages, files] = await Promise.all([reader.tree(), reader.files()]);
        const presentedFiles = await Promise.all(files.map(({ id, file }) => presentFile(id, file, blobs)));
        const mergedFrom = await mergedFromOf(ds.manager, revision, target.space, urls);
        return {
          status: 200,
          body: presentRevision(
            revision,
            {
              pages,
              files: presentedFiles,
              organizationId: target.space.organizationId,
              appPath: target.appPath,
              mergedFrom,
            },
            urls,
          ),
        };
      },
    );

    api.op(
      {
        method: 'get',
        path: form.path('/pages'),
        operationId: `list${form.name}Pages`,
        description: `Reads the page tree of ${form.reads.full}, nested, each page with its markdown and subtree. ${CONTENT_READ_ACCESS} Changes nothing.`,
        tags: ['content'],
        extension: form.extension,
        summary: `Get the page tree of ${form.reads.short} (nested, every page with its markdown)`,
        params: form.params,
        query: contentQuery,
        responses: {
          200: {
            description: 'pages',
            schema: pageTreeSchema,
          },
        },
      },
      async ({ params, access }) => {
        const target = await form.resolve(access, params, 'view');
        const { revision, reader } = await openContent(ds, target);
        return treeAnswers.reply([revision.id, target.appPath], async () => ({
          pages: presentPageTree(await reader.tree(), urls, target.appPath),
        }));
      },
    );

    /**
     * One page in the requested form: markdown or document, variables evaluated or not (its answer remembered,
     * api/remembered-answers.ts). The page is read only when its answer is not remembered: the key needs its id alone.
     */
    async function answerPage(
      req: Request,
      target: ContentTarget | RevisionTarget,
      pageIdOf: (reader: ContentReader) => string | undefined | Promise<string | undefined>,
      query: PageQuery,
    ): Promise<Reply> {
      const { revision, reader } = await openContent(ds, target);
      const pageId = await pageIdOf(reader);
      if (!pageId) throw notFound('page');
      const format = query.format ?? 'markdown';
      const evaluated = query.evaluated ?? false;
      // its ETag is remembered with it: a page unchanged by a new revision keeps its tag (pageTag)
      return pageAnswers.replyTagged(
        req,
        [revision.id, target.appPath, pageId, format, evaluated ? 'evaluated' : 'stored'],
        async () => {
          // a revision without the page answers 404, and nothing is remembered
          const page = await reader.page(pageId);
          if (!page) throw notFound('page');
          const body = pageBody(page, revision, format, evaluated);
          return presentTaggedPage(reader, page, body, target, urls, evaluated ? revision.variables : undefined);
        },
      );
    }

    api.op(
      {
        method: 'get',
        path: form.path('/page/{pageId}'),
        operationId: `get${form.name}PageById`,
        description: `Reads one page of ${form.reads.full} with the pages under it; its own body comes as markdown or, with \`format=document\`, as GitBook's document, and \`evaluated\` fills in the revision variables. ${CONTENT_READ_ACCESS} 404 when the revision has no page with that id.`,
        tags: ['content'],
        extension: form.extension,
        summary: 'Get one page with its markdown (or document) and the pages under it (each with its markdown)',
        params: { ...form.params, ...pageIdParams },
        query: getPageQuery,
        responses: {
          200: { description: 'page', schema: pageSchema },
          304: { description: 'not modified: the `If-None-Match` ETag is current (extension)' },
        },
      },
      async ({ params, query, access, req }) =>
        answerPage(req, await form.resolve(access, params, 'view'), () => params.pageId, query),
    );

    api.op(
      {
        method: 'get',
        path: form.path('/path/{pagePath}'),
        operationId: `get${form.name}PageByPath`,
        description: `Reads one page found by its path (its slugs from the root level down), answered exactly as by its id. ${CONTENT_READ_ACCESS} 404 when no page has that path in ${form.reads.short}.`,
        tags: ['content'],
        extension: true,
        summary: "Get one page by its path (GitBook's getPageByPath), answered as by its id",
        params: { ...form.params, ...pagePathParams },
        restParam: 'pagePath',
        query: getPageQuery,
        responses: {
          200: { description: 'page', schema: pageSchema },
          304: { description: 'not modified: the `If-None-Match` ETag is current (extension)' },
        },
      },
      async ({ params, query, access, req }) =>
        answerPage(
          req,
          await form.resolve(access, params, 'view'),
          (reader) => reader.pageIdByPath(params.pagePath),
          query,
        ),
    );
  }
}
