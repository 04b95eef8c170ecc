import { z } from 'zod';
import type { Presented } from '../../platform/wire/to-wire';
import { timestamp } from './common';

export const siteAdaptiveSchemaSchema = z
  .object({
    object: z.literal('site-adaptive-schema'),
    jsonSchema: z.record(z.unknown()).openapi({ description: 'the JSON Schema (draft-07) of the visitor claims' }),
    updatedAt: timestamp,
  })
  .openapi('SiteAdaptiveSchema');

export const templateConditionsSchema = z
  .object({
    items: z.array(
      z.object({ description: z.string(), condition: z.string() }).openapi('SiteAdaptiveTemplateCondition'),
    ),
  })
  .openapi('SiteAdaptiveTemplateConditions');

export function presentSiteAdaptiveSchema(
  jsonSchema: Record<string, unknown>,
  updatedAt: Date,
): Presented<typeof siteAdaptiveSchemaSchema> {
  return { object: 'site-adaptive-schema', jsonSchema, updatedAt: updatedAt.toISOString() };
}
