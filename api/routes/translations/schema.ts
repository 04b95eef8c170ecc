import { z } from 'zod';
import { documentToMarkdown } from '../../../domain/content/document-to-markdown';
import { LANGUAGES } from '../../../domain/spaces/languages';
import { documentInputSchema } from '../../presenters/document';
import { paginationQuery } from '../../query';
import { pathId, resourceId, text } from '../../schemas';
import { organizationIdParams } from '../orgs/schema';

export const INSTRUCTIONS_MAX = 10000;

const language = z
  .enum(LANGUAGES)
  .openapi('TranslationLanguage', { description: 'A language code, e.g. `en`, `fr`, `pt-br`.' });
const instructionsText = text({ max: INSTRUCTIONS_MAX, characters: 'lines' });

/** GitBook's JSONDocument, kept as its markdown under the length rule; GitBook sends it as the prompt's instructions. */
const instructions = documentInputSchema.transform(documentToMarkdown).superRefine((converted, ctx) => {
  for (const issue of instructionsText.safeParse(converted).error?.issues ?? []) ctx.addIssue(issue);
});

export const translationParams = {
  ...organizationIdParams,
  translationId: pathId('translation').openapi({ description: 'id of the translation' }),
};

export const createTranslationBody = z
  .object({
    language,
    source: z
      .object({
        space: resourceId.openapi({ description: 'id of the space to translate, in this organization' }),
        language,
      })
      .strict()
      .openapi({
        description: 'the space to translate and the language it is written in (must differ from `language`)',
      }),
    instructions: instructions.optional().openapi({
      description: `guidance for the translator, as a document (at most ${INSTRUCTIONS_MAX} characters as markdown); default none`,
    }),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.language === b.source.language)
      ctx.addIssue({ code: 'custom', path: ['language'], message: 'must differ from source.language' });
  });

export const updateTranslationBody = z
  .object({
    instructions: instructions.openapi({
      description: `the new guidance for the translator, as a document (at most ${INSTRUCTIONS_MAX} characters as markdown)`,
    }),
  })
  .strict();

export const listTranslationsQuery = { ...paginationQuery };
