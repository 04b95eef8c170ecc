/**
 * Reads only a revision named by id has (GitBook's): a page's document alone. The other reads of a revision are
 * the content reads, mounted for its form (revision-form.ts).
 */
import { markdownToDocument } from '../../../domain/content/document';
import { notFound } from '../../../domain/errors';
import type { ApiBuilder } from '../../operation';
import { documentSchema } from '../../presenters/document';
import { presentDocument } from '../../presenters/gitbook-document';
import { RememberedAnswers } from '../../remembered-answers';
import { pageMarkdown } from './present';
import { revisionForm } from './revision-form';
import { getPageQuery, pageIdParams } from './schema';
import { CONTENT_READ_ACCESS, openContent } from './target';

const documentQuery = { evaluated: getPageQuery.evaluated };

export function revisionRoutes(api: ApiBuilder): void {
  const { ds } = api.deps;
  // a page's document in one revision: immutable, so remembered by ids
  const documentAnswers = new RememberedAnswers(documentSchema, 8 * 2 ** 20);

  api.op(
    {
      method: 'get',
      path: revisionForm.path('/page/{pageId}/document'),
      operationId: 'getRevisionPageDocument',
      description: `Reads the body of one page of the revision as GitBook's document, alone (no page fields, no subtree); \`evaluated\` fills in the revision variables. ${CONTENT_READ_ACCESS} 404 when the revision has no page with that id.`,
      tags: ['content'],
      summary: "Get the document of one page of a revision (GitBook's JSONDocument)",
      params: { ...revisionForm.params, ...pageIdParams },
      query: documentQuery,
      responses: { 200: { description: 'document', schema: documentSchema } },
    },
    async ({ params, query, access }) => {
      const target = await revisionForm.resolve(access, params, 'view');
      const { revision, reader } = await openContent(ds, target);
      const page = await reader.page(params.pageId);
      if (!page) throw notFound('page');
      const evaluated = query.evaluated ?? false;
      return documentAnswers.reply([revision.id, page.id, evaluated ? 'evaluated' : 'stored'], async () =>
        presentDocument(markdownToDocument(pageMarkdown(page, revision, evaluated))),
      );
    },
  );
}
