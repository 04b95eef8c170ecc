/** Translations as GitBook's Translation (0.137 fields, 0.202's `result.language`), with our `failed` status and `error`. */
import { z } from 'zod';
import type { TranslationPermissions } from '../../domain/access/authorize';
import { markdownToDocument } from '../../domain/content/document';
import { LANGUAGES } from '../../domain/spaces/languages';
import { TRANSLATION_STATUSES, translationRunJob } from '../../domain/translations/run-job';
import type { Translation } from '../../entities/Translation';
import type { Presented } from '../../platform/wire/to-wire';
import { iso, timestamp } from './common';
import { documentSchema } from './document';
import { presentDocument } from './gitbook-document';
import type { Urls } from './urls';

const language = z.enum(LANGUAGES).openapi({ description: 'a language code' });
const count = z.number().int().min(0);

export const translationSchema = z
  .object({
    object: z.literal('translation').openapi({ description: 'always `translation`' }),
    id: z.string().openapi({ description: 'id of the translation' }),
    status: z
      .enum(TRANSLATION_STATUSES)
      .openapi({ description: '`failed` is an extension: the last run failed, `error` says why' }),
    source: z
      .object({
        space: z.string().openapi({ description: 'id of the space translated' }),
        language: language.openapi({ description: 'language the source space is written in' }),
      })
      .openapi({ description: 'what is translated' }),
    language: language.openapi({ description: 'language it translates into' }),
    instructions: documentSchema,
    result: z
      .object({
        space: z.string().openapi({ description: 'id of the space the runs write the translation into' }),
        revision: z.string().openapi({ description: 'id of the revision the last completed run wrote there' }),
        language: language.openapi({ description: 'language of the result space (the same as `language`)' }),
      })
      .optional()
      .openapi({
        description:
          'the space the runs write into and its revision of the last completed run; absent before the first',
      }),
    createdAt: timestamp.openapi({ description: 'when it was created (ISO 8601 date-time)' }),
    updatedAt: timestamp.openapi({ description: 'when it last changed (ISO 8601 date-time)' }),
    stats: z
      .object({
        runs: count.openapi({ description: 'completed runs' }),
        totalWords: count.openapi({ description: 'words sent to the provider by completed runs' }),
        totalPages: count.openapi({ description: 'distinct pages translated by completed runs' }),
        totalDuration: count.openapi({ description: "seconds, the sum of the runs' latestRunDuration" }),
        latestRunDuration: count.openapi({ description: 'seconds the latest completed run took' }),
        latestPages: count.openapi({
          description: 'pages the latest completed run sent (changed since the run before, or new)',
        }),
        latestWords: count.openapi({ description: 'words the latest completed run sent' }),
      })
      .openapi({ description: 'counts of the completed runs' }),
    error: z
      .object({
        code: z.string().openapi({ description: 'machine-readable cause of the failure' }),
        message: z.string().openapi({ description: 'what went wrong, in words' }),
      })
      .nullable()
      .openapi({
        description:
          "an extension: why the last run failed (status `failed`), e.g. the provider's answer; null otherwise",
      }),
    permissions: z
      .object({
        view: z.boolean().openapi({ description: 'whether the caller may read it (sees the source space)' }),
        edit: z
          .boolean()
          .openapi({ description: 'whether the caller may change, run or delete it (admin of the source space)' }),
      })
      .openapi({ description: "the caller's permissions on the translation" }),
    urls: z
      .object({ location: z.string().openapi({ description: 'API URL of the translation' }) })
      .openapi({ description: "the translation's URLs" }),
  })
  .openapi('Translation', {
    description:
      'A translation of a space into another language: runs write the translated content into a result space.',
  });

export function presentTranslation(
  translation: Translation,
  permissions: TranslationPermissions,
  urls: Urls,
): Presented<typeof translationSchema> {
  const failed = translationRunJob.publicStatus(translation.run) === 'failed';
  const resultLanguage = translation.language as (typeof LANGUAGES)[number];
  return {
    object: 'translation',
    id: translation.id,
    status: translationRunJob.publicStatus(translation.run),
    source: { space: translation.sourceSpaceId, language: translation.sourceLanguage as (typeof LANGUAGES)[number] },
    language: resultLanguage,
    instructions: presentDocument(markdownToDocument(translation.instructions)),
    result:
      translation.resultSpaceId && translation.resultRevisionId
        ? { space: translation.resultSpaceId, revision: translation.resultRevisionId, language: resultLanguage }
        : null,
    createdAt: iso(translation.createdAt),
    updatedAt: iso(translation.updatedAt),
    stats: {
      runs: translation.runs,
      totalWords: translation.totalWords,
      totalPages: translation.totalPages,
      totalDuration: translation.totalDuration,
      latestRunDuration: translation.latestRunDuration,
      latestPages: translation.latestPages,
      latestWords: translation.latestWords,
    },
    error: failed
      ? {
          code: translation.run.errorCode!,
          message: (translation.run.errorMessages ?? []).map((m) => m.message).join('; '),
        }
      : null,
    permissions: { ...permissions },
    urls: { location: urls.api(`/orgs/${translation.organizationId}/translations/${translation.id}`) },
  };
}
