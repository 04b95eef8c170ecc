import { z } from 'zod';
import type { Presented } from '../../platform/wire/to-wire';
import { timestamp } from './common';

export const siteAdaptiveSchemaSchema = z
  .object({
    object: z.literal('site-adaptive-schema').openapi({ description: 'always `site-adaptive-schema`' }),
    jsonSchema: z.record(z.unknown()).openapi({ description: 'the JSON Schema (draft-07) of the visitor claims' }),
    updatedAt: timestamp.openapi({ description: 'when the schema was last replaced (ISO 8601 date-time)' }),
  })
  .openapi('SiteAdaptiveSchema', {
    description:
      "The adaptive schema of a site: which claims its visitors carry, the claims its sections' and site spaces' conditions can test.",
  });

export const templateConditionsSchema = z
  .object({
    items: z
      .array(
        z
          .object({
            description: z.string().openapi({ description: 'what the condition tests, in words' }),
            condition: z.string().openapi({
              description: 'the condition, ready to set on a section or site space, e.g. `visitor.claims.beta == true`',
            }),
          })
          .openapi('SiteAdaptiveTemplateCondition', {
            description: 'A ready-made condition over one attribute of the adaptive schema.',
          }),
      )
      .openapi({ description: 'one condition per attribute a condition can test, in schema order' }),
  })
  .openapi('SiteAdaptiveTemplateConditions', {
    description: "Conditions made from a site's adaptive schema, to start from when writing one (not paginated).",
  });

export function presentSiteAdaptiveSchema(
  jsonSchema: Record<string, unknown>,
  updatedAt: Date,
): Presented<typeof siteAdaptiveSchemaSchema> {
  return { object: 'site-adaptive-schema', jsonSchema, updatedAt: updatedAt.toISOString() };
}
