/** Import runs as GitBook's ContentImportRun (0.202), and the result of an import as its ImportContentResult (0.137). */
import { z } from 'zod';
import { IMPORT_RUN_STATUSES } from '../../domain/imports/import-job';
import { IMPORT_SOURCES, importRunStatus } from '../../domain/imports/runs';
import type { ImportCommit } from '../../domain/jobs/contracts';
import type { ImportRun } from '../../entities/ImportRun';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, isoOrNull, timestamp } from './common';
import type { Urls } from './urls';

export const importContentResultSchema = z
  .object({
    revision: z.string().openapi({ description: 'id of the revision the import committed' }),
    importedResources: z.number().int().openapi({ description: 'pages imported' }),
    totalResources: z
      .number()
      .int()
      .openapi({ description: 'pages processed (fetched or unpacked), imported or skipped' }),
  })
  .openapi('ImportContentResult', { description: 'What an import committed, once it completed' });

export const importRunSchema = z
  .object({
    object: z.literal('import-run').openapi({ description: 'always `import-run`' }),
    id: z.string().openapi({ description: 'id of the import run; also the id `cli jobs watch` takes' }),
    status: z.enum(IMPORT_RUN_STATUSES).openapi({
      description: 'pending (asked for), in-progress, then completed, failed or cancelled',
    }),
    reason: z.string().nullable().openapi({ description: 'why the run failed or was cancelled; null otherwise' }),
    errorCode: z.string().nullable().openapi({
      description:
        'extension: FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR, LIMIT_EXCEEDED, TARGET_NOT_WRITABLE, JOB_FAILED or CANCELLED',
    }),
    createdAt: timestamp.openapi({ description: 'when the import was requested (ISO 8601 date-time)' }),
    updatedAt: timestamp.openapi({ description: 'when the run last changed (ISO 8601 date-time)' }),
    startedAt: timestamp.nullable().openapi({ description: 'when the job began working; null until then' }),
    completedAt: timestamp
      .nullable()
      .openapi({ description: 'when the run completed; null unless status is completed' }),
    source: z
      .object({
        type: z.enum(['website', 'file']).openapi({ description: "GitBook's kind of source: a website, or files" }),
        url: z.string().openapi({ description: 'the URL the import fetches' }),
        files: z
          .array(z.string())
          .optional()
          .openapi({ description: 'a file import: the URL of the document (GitBook names uploaded files)' }),
        importSource: z.enum(IMPORT_SOURCES).openapi({ description: 'extension: the `source` of the import request' }),
      })
      .openapi({ description: "GitBook 0.202's ContentImportSource, with the URL and the requested source" }),
    target: z
      .object({
        space: z.string().openapi({ description: 'id of the space imported into' }),
        changeRequest: z
          .string()
          .nullable()
          .openapi({ description: "id of the change request imported into; null for the space's own content" }),
        page: z.null().openapi({ description: 'always null: imported pages go to the root level' }),
      })
      .openapi({ description: 'the content the pages are imported into' }),
    site: z.null().openapi({ description: 'there are no sites' }),
    createdBy: z.string().openapi({ description: 'id of the user who requested the import' }),
    progress: z
      .object({
        done: z.number().int().openapi({ description: 'pages processed so far' }),
        total: z.number().int().nullable().openapi({ description: 'pages known to process; null while unknown' }),
      })
      .openapi({ description: 'extension: pages processed so far, of those known' }),
    revision: z.string().nullable().openapi({ description: 'extension: the revision the import committed' }),
    importedResources: z.number().int().openapi({ description: 'extension: pages imported' }),
    totalResources: z.number().int().openapi({ description: 'extension: pages processed' }),
    urls: z
      .object({ location: z.string().openapi({ description: 'URL of the import run in this API' }) })
      .openapi({ description: 'where the run can be followed' }),
  })
  .openapi('ContentImportRun', {
    description: 'One import of content from a URL into a space or change request, run by the content-import job',
  });

export function importRunUrl(urls: Urls, run: ImportRun): string {
  return urls.api(`/org/${run.organizationId}/imports/${run.id}`);
}

export function presentImportResult(result: ImportCommit): Presented<typeof importContentResultSchema> {
  return {
    revision: result.revisionId,
    importedResources: result.importedResources,
    totalResources: result.totalResources,
  };
}

export function presentImportRun(run: ImportRun, urls: Urls): Presented<typeof importRunSchema> {
  const status = importRunStatus(run);
  const job = run.process;
  const times = [run.updatedAt, job.requestedAt, job.startedAt, job.finishedAt].filter((t): t is Date => t !== null);
  return {
    object: 'import-run',
    id: run.id,
    status,
    reason: status === 'failed' || status === 'cancelled' ? (job.errorMessages?.[0]?.message ?? job.errorCode) : null,
    errorCode: job.errorCode,
    createdAt: iso(run.createdAt),
    updatedAt: iso(new Date(Math.max(...times.map((t) => t.getTime())))),
    startedAt: isoOrNull(job.startedAt),
    completedAt: status === 'completed' ? isoOrNull(job.finishedAt) : null,
    source:
      run.source === 'website'
        ? { type: 'website', url: run.url, files: null, importSource: run.source }
        : { type: 'file', url: run.url, files: [run.url], importSource: run.source },
    target: { space: run.spaceId, changeRequest: run.changeRequestId, page: null },
    site: null,
    createdBy: run.createdById,
    progress: { done: job.progressDone, total: job.progressTotal },
    revision: run.revisionId,
    importedResources: run.importedResources,
    totalResources: run.totalResources,
    urls: { location: importRunUrl(urls, run) },
  };
}
