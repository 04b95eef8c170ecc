/** OpenAPI specifications, their versions and version content, as GitBook's OpenAPISpec* objects (both 0.137 and 0.202 fields). */
import { z } from 'zod';
import type { OpenAPISpecPermissions } from '../../domain/access/authorize';
import { JOB_FAILURES } from '../../domain/jobs/contracts';
import { OPENAPI_FAILURES } from '../../domain/openapi-specs/failures';
import { OPENAPI_PROCESSING_STATES, openapiProcessJob } from '../../domain/openapi-specs/process-job';
import type { OpenAPISpec } from '../../entities/OpenAPISpec';
import type { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, isoOrNull, timestamp } from './common';
import type { Urls } from './urls';

const ERROR_CODES = [
  OPENAPI_FAILURES.fetchTimeout,
  OPENAPI_FAILURES.fetch,
  OPENAPI_FAILURES.parse,
  JOB_FAILURES.failed,
] as const;

export const openAPISpecSchema = z
  .object({
    object: z.literal('openapi-spec').openapi({ description: 'always `openapi-spec`' }),
    id: z.string().openapi({ description: 'id of the specification' }),
    createdAt: timestamp.openapi({ description: 'when it was created (ISO 8601 date-time)' }),
    updatedAt: timestamp.openapi({ description: 'when it last changed (ISO 8601 date-time)' }),
    slug: z.string().openapi({
      description: 'its name in the organization and in its URLs: lowercase words joined by hyphens (at most 100)',
    }),
    sourceURL: z.string().optional().openapi({ description: 'absent for a text source' }),
    processingState: z
      .enum(OPENAPI_PROCESSING_STATES)
      .openapi({ description: 'a failed run is `complete` with `lastProcessErrorCode`' }),
    visibility: z.enum(['private', 'public']).openapi({
      description:
        '`private`: members of the organization only; `public`: anyone can read its versions at urls.published',
    }),
    lastVersion: z.string().optional().openapi({ description: 'id of the newest version; a failed run keeps it' }),
    lastProcessedAt: timestamp.optional().openapi({
      description:
        'when the last processing run ended, successful or not (ISO 8601 date-time); absent before the first',
    }),
    lastProcessErrorCode: z.enum(ERROR_CODES).optional().openapi({
      description: 'JOB_FAILED (an extension): the run failed for another reason than fetching or parsing',
    }),
    lastProcessedErrors: z
      .array(
        z.object({
          message: z.string().openapi({ description: 'the problem, in words' }),
          code: z.string().nullable().openapi({ description: 'machine-readable code of the problem; null when none' }),
        }),
      )
      .openapi({ description: 'the problems of the last failed run, at most 100' }),
    lastProcessedErrorCount: z
      .number()
      .int()
      .min(0)
      .openapi({ description: 'all problems of the last failed run, before truncation' }),
    permissions: z
      .object({
        view: z.boolean().openapi({ description: 'whether the caller may read it and its versions' }),
        edit: z.boolean().openapi({ description: 'whether the caller may replace its source, change or delete it' }),
      })
      .openapi({ description: "the caller's permissions on the specification" }),
    urls: z
      .object({
        location: z.string().openapi({ description: 'API URL of the specification' }),
        app: z.string().openapi({ description: 'URL of the specification in the app' }),
        published: z
          .string()
          .optional()
          .openapi({ description: 'where anyone reads the latest version; absent unless visibility is public' }),
      })
      .openapi({ description: "the specification's URLs" }),
  })
  .openapi('OpenAPISpec', {
    description:
      'An OpenAPI specification of an organization, from a URL or a text: each processing run that finds the document changed stores a new version of it (older ones are pruned).',
  });

export const openAPISpecVersionSchema = z
  .object({
    object: z.literal('openapi-spec-version').openapi({ description: 'always `openapi-spec-version`' }),
    id: z.string().openapi({ description: 'id of the version' }),
    createdAt: timestamp.openapi({ description: 'when the processing run stored it (ISO 8601 date-time)' }),
    url: z.string().openapi({
      description: 'the source URL, or for a text source a download URL of the text as submitted (expires)',
    }),
    urls: z
      .object({ location: z.string().openapi({ description: 'API URL of the version' }) })
      .openapi({ description: "the version's URLs" }),
  })
  .openapi('OpenAPISpecVersion', {
    description:
      'One processed version of an OpenAPI specification: the document as it was when that run fetched or received it.',
  });

export const openAPISpecContentSchema = z
  .object({
    filesystem: z.record(z.unknown()).openapi({
      description: 'each file of the bundle by its path: {dir, isEntrypoint, references, filename, specification}',
    }),
    url: z.string().openapi({
      description: 'the source URL, or for a text source a download URL of the text as submitted (expires)',
    }),
    urls: z
      .object({
        source: z.string().openapi({ description: 'the same URL as `url`' }),
        public: z.string().nullable().openapi({
          description: 'the source URL (URL specs) or the published copy (text specs) when public; null when private',
        }),
      })
      .openapi({ description: "the version's URLs" }),
  })
  .openapi('OpenAPISpecContent', {
    description:
      'The bundled files of a version of an OpenAPI specification, the entry document and what it references.',
  });

/** Where an OpenAPI spec's public copies are served (anonymously, public specs only). */
export function publishedSpecUrl(urls: Urls, spec: OpenAPISpec, versionId?: string): string {
  return urls.api(`/published/openapi/${spec.organizationId}/${spec.slug}${versionId ? `/versions/${versionId}` : ''}`);
}

export function presentOpenAPISpec(
  spec: OpenAPISpec,
  permissions: OpenAPISpecPermissions,
  urls: Urls,
): Presented<typeof openAPISpecSchema> {
  const failed = spec.process.errorCode !== null;
  const errors = spec.process.errorMessages ?? [];
  return {
    object: 'openapi-spec',
    id: spec.id,
    createdAt: iso(spec.createdAt),
    updatedAt: iso(spec.updatedAt),
    slug: spec.slug,
    sourceURL: spec.sourceUrl,
    processingState: openapiProcessJob.publicStatus(spec.process),
    visibility: spec.visibility,
    lastVersion: spec.lastVersionId,
    // a failed run ended later than the last version was made
    lastProcessedAt: isoOrNull(spec.process.finishedAt ?? spec.lastProcessedAt),
    lastProcessErrorCode: failed ? (spec.process.errorCode as (typeof ERROR_CODES)[number]) : null,
    lastProcessedErrors: failed ? errors.map((e) => ({ message: e.message, code: e.code ?? null })) : [],
    lastProcessedErrorCount: !failed
      ? 0
      : spec.process.errorCode === OPENAPI_FAILURES.parse
        ? Math.max(spec.lastProcessedErrorCount, errors.length)
        : errors.length,
    permissions: { ...permissions },
    urls: {
      location: urls.api(`/orgs/${spec.organizationId}/openapi/${spec.slug}`),
      app: urls.app(`/o/${spec.organizationId}/openapi/${spec.slug}`),
      published: spec.visibility === 'public' ? publishedSpecUrl(urls, spec) : null,
    },
  };
}

export function presentOpenAPISpecVersion(
  spec: OpenAPISpec,
  version: OpenAPISpecVersion,
  url: string,
  urls: Urls,
): Presented<typeof openAPISpecVersionSchema> {
  return {
    object: 'openapi-spec-version',
    id: version.id,
    createdAt: iso(version.createdAt),
    url,
    urls: { location: urls.api(`/orgs/${spec.organizationId}/openapi/${spec.slug}/versions/${version.id}`) },
  };
}

export function presentOpenAPISpecContent(
  spec: OpenAPISpec,
  version: OpenAPISpecVersion,
  filesystem: Record<string, unknown>,
  url: string,
  urls: Urls,
): Presented<typeof openAPISpecContentSchema> {
  const publicUrl =
    spec.visibility !== 'public' ? null : (version.sourceUrl ?? publishedSpecUrl(urls, spec, version.id));
  return { filesystem, url, urls: { source: url, public: publicUrl } };
}
