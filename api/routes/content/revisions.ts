/**
 * Reads only a revision named by id has (GitBook's): a page's document alone, and what changed in it; what a change
 * request changes. The other reads of a revision are the content reads, mounted for its form (revision-form.ts).
 */
import { z } from 'zod';
import { mergeBaseId } from '../../../domain/content/change-requests';
import { semanticChanges } from '../../../domain/content/changes';
import { markdownToDocument } from '../../../domain/content/document';
import { ObjectStore } from '../../../domain/content/objects';
import { loadRevision } from '../../../domain/content/revisions';
import { notFound } from '../../../domain/errors';
import type { ApiBuilder } from '../../operation';
import { documentSchema } from '../../presenters/document';
import { presentDocument } from '../../presenters/gitbook-document';
import { presentSemanticChanges, semanticChangesSchema } from '../../presenters/revision-changes';
import { Urls } from '../../presenters/urls';
import { RememberedAnswers } from '../../remembered-answers';
import { changeRequestIdParams } from '../change-requests/schema';
import { mergedFromOf, pageMarkdown } from './present';
import { revisionForm } from './revision-form';
import { contentQuery, getPageQuery, pageIdParams } from './schema';
import { CONTENT_FORMS, CONTENT_READ_ACCESS, openContent } from './target';

const documentQuery = { evaluated: getPageQuery.evaluated };

const changesQuery = {
  limit: z
    .string()
    .regex(/^\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(1).max(1000))
    .optional()
    .openapi({
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      description: 'how many changes to list, 1 to 1000 (default 10); `more` counts the rest',
    }),
};

const CHANGES_LIMIT_DEFAULT = 10;

export function revisionRoutes(api: ApiBuilder): void {
  const { ds, config, blobs } = api.deps;
  const urls = new Urls(config);
  const changeRequestForm = CONTENT_FORMS.find((f) => f.name === 'ChangeRequest')!;
  // a page's document in one revision: immutable, so remembered by ids
  const documentAnswers = new RememberedAnswers(documentSchema, 8 * 2 ** 20);

  api.op(
    {
      method: 'get',
      path: revisionForm.path('/page/{pageId}/document'),
      operationId: 'getRevisionPageDocument',
      extension: true,
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

  api.op(
    {
      method: 'get',
      path: revisionForm.path('/changes'),
      operationId: 'getRevisionChanges',
      extension: true,
      description: `Lists what changed in the revision against its first parent (the space's side of a merge, the change request's side of an update; a first revision against an empty content): pages created, edited, moved or deleted, files created, edited or deleted, variables edited, at most \`limit\`, and how many more. A merge revision names the change request it merged in \`mergedFrom\`. Computed from the two revisions' content trees, skipping what they share, so its cost follows the changes, not the size of the space. ${CONTENT_READ_ACCESS} Changes nothing.`,
      tags: ['content'],
      summary: 'List the semantic changes of a revision against its first parent',
      params: revisionForm.params,
      query: { ...changesQuery, ...contentQuery },
      responses: { 200: { description: 'changes', schema: semanticChangesSchema } },
    },
    async ({ params, query, access }) => {
      const target = await revisionForm.resolve(access, params, 'view');
      const { revision } = target;
      const store = new ObjectStore(ds.manager);
      const [parentId] = revision.parents;
      const parent = parentId ? await loadRevision(ds.manager, parentId) : null;
      const changes = await semanticChanges(store, parent, revision, query.limit ?? CHANGES_LIMIT_DEFAULT);
      const mergedFrom = await mergedFromOf(ds.manager, revision, target.space, urls);
      return { status: 200, body: await presentSemanticChanges(changes, blobs, mergedFrom) };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes',
      operationId: 'getChangeRequestChanges',
      extension: true,
      description: `Lists what the change request changes: its current revision against its base (the space revision it started from, or last caught up with), in the form of a revision's changes. ${CONTENT_READ_ACCESS} Changes nothing.`,
      tags: ['change-requests'],
      summary: 'List the semantic changes of a change request against its base',
      params: changeRequestIdParams,
      query: changesQuery,
      responses: { 200: { description: 'changes', schema: semanticChangesSchema } },
    },
    async ({ params, query, access }) => {
      const target = await changeRequestForm.resolve(access, params, 'view');
      const changeRequest = target.changeRequest!;
      const [base, head] = await Promise.all([
        loadRevision(ds.manager, mergeBaseId(changeRequest)),
        loadRevision(ds.manager, changeRequest.revisionId),
      ]);
      const store = new ObjectStore(ds.manager);
      const changes = await semanticChanges(store, base, head, query.limit ?? CHANGES_LIMIT_DEFAULT);
      return { status: 200, body: await presentSemanticChanges(changes, blobs, undefined) };
    },
  );
}
