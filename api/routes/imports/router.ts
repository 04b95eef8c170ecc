/**
 * Content import (GitBook 0.137's importContent and importContentInChangeRequest) and its import runs
 * (GitBook 0.202's listImportRuns, getImportRun, cancelImportRun at `/v1/org/…`: GitBook's newer document decides where 0.137 is silent). An import
 * request creates a run in one transaction and starts the content-import job after the commit; it
 * awaits the job up to IMPORT_WAIT_SECONDS and answers from the run's row: 201 with the result, 202
 * with the run while it goes on, or the error the run ended with. `Location` is the run in every case.
 */
import { authorize, viewableContent } from '../../../domain/access/authorize';
import { AccessContext } from '../../../domain/access/context';
import { notFound } from '../../../domain/errors';
import { IMPORT_FAILURES } from '../../../domain/imports/failures';
import { contentImportJob } from '../../../domain/imports/import-job';
import { importRunsQuery } from '../../../domain/imports/queries';
import { cancelImportRun, importRunStatus, requestImport } from '../../../domain/imports/runs';
import { lockJobRow } from '../../../domain/jobs/job-lifecycle';
import { awaitJobRun } from '../../../domain/jobs/kinds';
import { ImportRun } from '../../../entities/ImportRun';
import { inTransaction } from '../../../platform/db/transactions';
import { chosenWait } from '../../../platform/deadline';
import { loadSpace, loadVisibleOrganization } from '../../loaders';
import { paginate } from '../../middleware/paginate';
import type { ApiBuilder } from '../../operation';
import { listSchema, presentList } from '../../presenters/common';
import {
  importContentResultSchema,
  importRunSchema,
  importRunUrl,
  presentImportResult,
  presentImportRun,
} from '../../presenters/import-run';
import { Urls } from '../../presenters/urls';
import { CONTENT_FORMS } from '../content/target';
import { organizationIdParams } from '../orgs/schema';
import { importContentBody, importRunParams, listImportRunsQuery } from './schema';

/** Codes of a run that failed on what the request gave it (its URL and what is there): a 400 naming `url`. */
const SOURCE_FAILURES = new Set<string>([
  IMPORT_FAILURES.fetch,
  IMPORT_FAILURES.fetchTimeout,
  IMPORT_FAILURES.parse,
  IMPORT_FAILURES.limit,
]);

/** The status of the error a run ended with: its source (400), its target (409), or anything else (503). */
function failureStatus(run: ImportRun): number {
  const code = run.process.errorCode ?? '';
  if (SOURCE_FAILURES.has(code)) return 400;
  return code === IMPORT_FAILURES.target || importRunStatus(run) === 'cancelled' ? 409 : 503;
}

export function importRoutes(api: ApiBuilder): void {
  const { ds, config, temporal } = api.deps;
  const urls = new Urls(config);
  const tags = ['imports'];

  for (const form of CONTENT_FORMS) {
    api.op(
      {
        method: 'post',
        path: form.path('/import'),
        operationId: form.name === 'Space' ? 'importContent' : 'importContentInChangeRequest',
        description:
          "Imports pages from a URL into the content (the space's own, or the change request's): creates an import run and starts its content-import job, which fetches or unpacks the source and appends the pages at the root level as one new revision. Needs `edit` on the space. The request waits up to IMPORT_WAIT_SECONDS: 201 with the result once committed, else 202 with the run (`Location` either way; follow it with `node dist/cli/main.js jobs watch <importRunId>`). The same request again finds the run under way; another import into the same content cancels it.",
        tags: ['content'],
        summary:
          'Import content from a URL (website, html, markdown, zip, docx) as one new revision; 202 with the import run when it takes longer than IMPORT_WAIT_SECONDS',
        params: form.params,
        body: importContentBody,
        responses: {
          201: {
            description: 'content imported in a new revision; Location: the import run',
            schema: importContentResultSchema,
          },
          202: { description: 'the import goes on: Location and the body are its import run', schema: importRunSchema },
          400: {
            description:
              'bad input, or the import failed on its source (FETCH_ERROR, FETCH_TIMEOUT, PARSE_ERROR, LIMIT_EXCEEDED)',
          },
          409: {
            description:
              'the content cannot change (a merged change request, a locked space), or the import was cancelled',
          },
        },
      },
      async ({ params, body, caller, access }) => {
        // the superseded imports' cancels and this one's start follow the commit
        const { ticket } = await inTransaction(api.deps, async (db) => {
          const target = await form.resolve(access.within(db), params, 'edit');
          return requestImport(db, target, body, caller.userId);
        });
        await awaitJobRun(temporal, contentImportJob, ticket.row, chosenWait(config.imports.waitSeconds * 1000));
        const run = (await ds.manager.findOneBy(ImportRun, { id: ticket.row.id })) ?? ticket.row;
        const location = { Location: importRunUrl(urls, run) };
        const status = importRunStatus(run);
        if (status === 'completed' && run.revisionId) {
          return {
            status: 201,
            headers: location,
            body: presentImportResult({
              revisionId: run.revisionId,
              importedResources: run.importedResources,
              totalResources: run.totalResources,
            }),
          };
        }
        if (status === 'failed' || status === 'cancelled') {
          const code = failureStatus(run);
          const reason = run.process.errorMessages?.[0]?.message ?? 'no reason recorded';
          const message =
            code === 400
              ? `url: the import failed (${run.process.errorCode}): ${reason}`
              : `the import ${status === 'cancelled' ? 'was cancelled' : `failed (${run.process.errorCode})`}: ${reason}`;
          return { status: code, headers: location, body: { error: { code, message } } };
        }
        return { status: 202, headers: location, body: presentImportRun(run, urls) };
      },
    );
  }

  /** The run of a visible organization whose space the caller can see (`action` on it), or 404. */
  async function authorizedRun(
    access: AccessContext,
    organizationId: string,
    run: ImportRun | null,
    action: 'view' | 'edit',
  ): Promise<ImportRun> {
    await loadVisibleOrganization(access, organizationId);
    if (!run || run.organizationId !== organizationId) throw notFound('import run');
    const space = await loadSpace(access, run.spaceId).catch(() => {
      throw notFound('import run');
    });
    await authorize(access, { kind: 'space', space }, action, 'import run');
    return run;
  }

  api.op(
    {
      method: 'get',
      path: '/v1/org/{organizationId}/imports',
      operationId: 'listImportRuns',
      description:
        'Lists the import runs of the organization, most recent first, paginated, keeping only runs into spaces the caller can view; `space`, `changeRequest` and `status` filter them. Needs membership of the organization (404 otherwise). Changes nothing.',
      tags,
      extension: true,
      summary: 'List the import runs of the spaces you can view, most recent first (GitBook 0.202)',
      params: organizationIdParams,
      query: listImportRunsQuery,
      responses: { 200: { description: 'import runs', schema: listSchema(importRunSchema) } },
    },
    async ({ params, query, access }) => {
      const organization = await loadVisibleOrganization(access, params.organizationId);
      const filters = { space: query.space, changeRequest: query.changeRequest, status: query.status };
      const page = await paginate(
        importRunsQuery(ds.manager, organization.id, await viewableContent(access, organization.id), filters),
        [
          { column: 'r.createdAt', direction: 'DESC', value: (r) => r.createdAt },
          { column: 'r.id', direction: 'DESC', value: (r) => r.id },
        ],
        { limit: query.limit, page: query.page, scope: `imports:${organization.id}:${JSON.stringify(filters)}` },
        config.cursorSecret,
      );
      return {
        status: 200,
        body: presentList(
          page,
          page.items.map((r) => presentImportRun(r, urls)),
        ),
      };
    },
  );

  api.op(
    {
      method: 'get',
      path: '/v1/org/{organizationId}/imports/{importRunId}',
      operationId: 'getImportRun',
      description:
        'Reads one import run: its status, progress, error and, once committed, its revision. Needs read access to the space it imports into (404 otherwise). The run can also be followed with `node dist/cli/main.js jobs watch <importRunId>`.',
      tags,
      extension: true,
      summary: 'Get an import run: its status, progress and, once committed, its revision (GitBook 0.202)',
      params: importRunParams,
      responses: { 200: { description: 'import run', schema: importRunSchema } },
    },
    async ({ params, access }) => {
      const run = await authorizedRun(
        access,
        params.organizationId,
        await ds.manager.findOneBy(ImportRun, { id: params.importRunId }),
        'view',
      );
      return { status: 200, body: presentImportRun(run, urls) };
    },
  );

  api.op(
    {
      method: 'post',
      path: '/v1/org/{organizationId}/imports/{importRunId}/cancel',
      operationId: 'cancelImportRun',
      description:
        'Cancels a pending or in-progress import run: its content-import job stops and nothing of it is committed. Needs `edit` on the space it imports into. 400 once the run has ended or committed its revision.',
      tags,
      extension: true,
      summary:
        'Cancel a pending or in-progress import run: nothing of it is committed (400 once it ended or committed)',
      params: importRunParams,
      responses: { 200: { description: 'the cancelled import run', schema: importRunSchema } },
    },
    async ({ params, access }) => {
      const ticket = await inTransaction(api.deps, async (db) => {
        const run = await authorizedRun(
          access.within(db),
          params.organizationId,
          await lockJobRow(db, contentImportJob, params.importRunId),
          'edit',
        );
        return cancelImportRun(db, run);
      });
      return { status: 200, body: presentImportRun(ticket.row, urls) };
    },
  );
}
