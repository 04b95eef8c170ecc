import { z } from 'zod';
import { documentToMarkdown } from '../../../domain/content/document-to-markdown';
import { LANGUAGES } from '../../../domain/spaces/languages';
import { documentInputSchema } from '../../presenters/document';
import { paginationQuery } from '../../query';
import { pathId, resourceId, text } from '../../schemas';
import { organizationIdParams } from '../orgs/schema';

export const INSTRUCTIONS_MAX = 10000;

const language = z.enum(LANGUAGES).openapi('TranslationLanguage');
const instructionsText = text({ max: INSTRUCTIONS_MAX, characters: 'lines' });

/** GitBook's JSONDocument, kept as its markdown under the length rule; GitBook sends it as the prompt's instructions. */
const instructions = documentInputSchema.transform(documentToMarkdown).superRefine((converted, ctx) => {
  for (const issue of instructionsText.safeParse(converted).error?.issues ?? []) ctx.addIssue(issue);
});

export const translationParams = { ...organizationIdParams, translationId: pathId('translation') };

export const createTranslationBody = z
  .object({
    language,
    source: z
      .object({ space: resourceId, language })
      .strict()
      .openapi({ description: 'the space to translate and the language it is written in' }),
    instructions: instructions.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.language === b.source.language)
      ctx.addIssue({ code: 'custom', path: ['language'], message: 'must differ from source.language' });
  });

export const updateTranslationBody = z.object({ instructions }).strict();

export const listTranslationsQuery = { ...paginationQuery };
